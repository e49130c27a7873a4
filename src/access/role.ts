/**
 * A person's role in a space: from a team (and so in the team's spaces), or from a share of
 * one space (viewer or member); an owner's own space: `owner`. A `viewer` reads, searches and
 * asks, and writes nothing.
 */
export type Role = "owner" | "admin" | "member" | "viewer";

/** Whether the role may change a space's pages and files (every role but `viewer`). */
export function canWrite(role: Role | null): boolean {
  return role !== null && role !== "viewer";
}

/** Whether the role manages the space: its settings, feedback, audit log and people. */
export function manages(role: Role | null): boolean {
  return role === "owner" || role === "admin";
}
