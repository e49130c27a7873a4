import { z } from "zod";
import { sourceFreshnessFields } from "../sources/freshness.ts";
import { versionParam } from "../versions/versions.ts";

/** A question to a wiki (REST `ask`, MCP `ask`). */
export const askInput = z.object({
  question: z.string().trim().min(1, "The question is empty").max(
    2000,
    "The question is over 2000 characters",
  )
    .describe("The question, in words"),
  version: versionParam,
});

/** Where a wiki's coverage is thin, for the caller to act on. */
export const frontierNoteSchema = z.object({
  kind: z.enum([
    "uncovered",
    "weak_match",
    "single_source",
    "stale_source",
    "missing_page",
    "citation_dropped",
    "llm_fallback",
    "conflict",
    "version_changed",
  ]),
  note: z.string(),
  pages: z.array(z.string()).optional(),
});
export type FrontierNote = z.infer<typeof frontierNoteSchema>;

/**
 * A cited passage: `n` is the marker `[n]` in the answer; `quote` is verbatim from the page's
 * markdown at `revision`, byte for byte: `markdown.slice(start, end) === quote`.
 */
export const citationSchema = z.object({
  n: z.number().int(),
  wiki: z.string(),
  page: z.string(),
  title: z.string(),
  url: z.string(),
  revision: z.number().int(),
  section: z.string().nullable(),
  quote: z.string(),
  start: z.number().int().describe("Offset of the quote's first character in the page's markdown"),
  end: z.number().int().describe("Offset just past the quote's last character"),
  version: z.string().optional().describe(
    "The version of the wiki the quote is from (absent: the live pages)",
  ),
  ...sourceFreshnessFields,
});
export type Citation = z.infer<typeof citationSchema>;

/** An answer with its citations, frontier notes and a one-word coverage summary. */
export const answerSchema = z.object({
  question: z.string(),
  answer: z.string().describe(
    "The answer as markdown, returned as is: paragraphs (code spans kept), lists, fenced code " +
      "blocks, a small table where the page has one, and table rows read with their header, " +
      "each unit followed by its [n] citation marker. No HTML, wikilinks or other source " +
      "syntax; render it as markdown or read it as text",
  ),
  citations: z.array(citationSchema),
  frontier: z.array(frontierNoteSchema),
  coverage: z.enum(["supported", "partial", "unsupported"]),
  mode: z.enum(["llm", "extractive"]),
});
export type Answer = z.infer<typeof answerSchema>;
