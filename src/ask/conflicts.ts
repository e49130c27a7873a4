import type { Citation, FrontierNote } from "./ask_schema.ts";

/** Cited passages that state different values for the same thing (filled in below). */
export function conflictNotes(_citations: Citation[]): FrontierNote[] {
  return [];
}
