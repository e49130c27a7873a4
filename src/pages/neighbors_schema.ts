import { z } from "zod";

/** A page's linked neighbours, each edge typed. */
export const neighborsSchema = z.object({
  wiki: z.string(),
  page: z.string(),
  title: z.string(),
  neighbors: z.array(z.object({
    page: z.string(),
    title: z.string().nullable(),
    relation: z.enum(["links_to", "linked_from"]),
    anchor_text: z.string().nullable(),
    section: z.string().nullable(),
    exists: z.boolean().describe("False for a link to a page nobody has written yet"),
  })),
  truncated: z.boolean(),
  version: z.string().optional().describe("The version read (absent: the live pages)"),
});
export type Neighbors = z.infer<typeof neighborsSchema>;
