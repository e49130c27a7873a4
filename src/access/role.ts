/** A member's role in a team, and so in the team's spaces (an owner's own space: `owner`). */
export type Role = "owner" | "admin" | "member";
