import { z } from "zod";
import type { LlmConfig } from "../config/config.ts";
import type { FrontierNote } from "./ask_schema.ts";
import { findLoosely } from "./locate.ts";
import type { Passage } from "./passages.ts";

/** What the model must return. */
const modelAnswer = z.object({
  answer: z.string().min(1),
  citations: z.array(z.object({ passage: z.number().int(), quote: z.string().min(1) })).default([]),
  frontier: z.array(z.object({ kind: z.string(), note: z.string() })).default([]),
  covered: z.boolean().optional(),
});

/** A model answer whose citations were checked against the passages. */
export type VerifiedAnswer = {
  answer: string;
  cited: { passage: Passage; quote: string; start: number; end: number }[];
  dropped: FrontierNote[];
  modelNotes: FrontierNote[];
  /** The model's claim that the passages do (not) answer the question, if it made one. */
  covered?: boolean;
};

/** Why the model's answer could not be used. */
export class LlmUnavailable extends Error {
  override name = "LlmUnavailable";
}

const SYSTEM = [
  "You answer questions using only the numbered passages from a wiki.",
  'Reply with one JSON object: {"answer": string, "citations": [{"passage": number, "quote": string}],',
  '"frontier": [{"kind": "uncovered" | "weak_match", "note": string}], "covered": boolean}.',
  "Set `covered` to false when the passages do not answer the question, true when they do.",
  "In `answer`, put [n] after each claim, n being the passage it comes from.",
  "Each citation's `quote` must be copied exactly, character for character, from passage `passage`.",
  "If the passages do not answer the question, say so in `answer` and add a frontier note of kind weak_match.",
  "Add a frontier note of kind uncovered for each part of the question no passage covers.",
].join(" ");

/**
 * Asks an OpenAI-compatible chat model for an answer in JSON, then verifies it: every quote
 * must appear in the passage it names (white space aside), every `[n]` must name a passage
 * that a verified citation backs. Unverifiable citations are dropped and reported.
 * Throws `LlmUnavailable` on a timeout, an error or output that is not the JSON asked for.
 */
export async function answerWithLlm(
  config: LlmConfig,
  question: string,
  passages: Passage[],
): Promise<VerifiedAnswer> {
  // Loaded on the first call: a server without a model never holds the client library.
  const { default: OpenAI } = await import("openai");
  const client = new OpenAI({
    baseURL: config.baseUrl,
    apiKey: config.apiKey ?? "none",
    timeout: config.timeoutMs,
    maxRetries: config.maxRetries,
  });
  const prompt = `Question: ${question}\n\nPassages:\n\n` +
    passages.map((p) =>
      `[${p.n}] (page "${p.page}"${p.section ? `, section "${p.section}"` : ""})\n${p.text}`
    ).join("\n\n");
  let content: string;
  try {
    const completion = await client.chat.completions.create({
      model: config.model,
      temperature: 0,
      response_format: { type: "json_object" },
      messages: [{ role: "system", content: SYSTEM }, { role: "user", content: prompt }],
    });
    content = completion.choices[0]?.message?.content ?? "";
  } catch (error) {
    throw new LlmUnavailable(
      error instanceof OpenAI.APIConnectionTimeoutError
        ? "it timed out"
        : `it failed (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  let parsed: z.infer<typeof modelAnswer>;
  try {
    parsed = modelAnswer.parse(JSON.parse(content.replace(/^\s*```(?:json)?\s*|\s*```\s*$/g, "")));
  } catch {
    throw new LlmUnavailable("its reply was not the JSON asked for");
  }
  return verify(parsed, passages);
}

function verify(parsed: z.infer<typeof modelAnswer>, passages: Passage[]): VerifiedAnswer {
  const byNumber = new Map(passages.map((p) => [p.n, p]));
  const cited: VerifiedAnswer["cited"] = [];
  const dropped: FrontierNote[] = [];
  for (const c of parsed.citations) {
    const passage = byNumber.get(c.passage);
    const span = passage ? quoteSpan(passage, c.quote) : null;
    if (!passage || span === null) {
      dropped.push({
        kind: "citation_dropped",
        note: passage
          ? `A quote attributed to "${passage.page}" is not in that page and was dropped: "${
            c.quote.slice(0, 120)
          }"`
          : `A citation of passage ${c.passage}, which was not retrieved, was dropped`,
      });
      continue;
    }
    const [start, end] = span;
    const quote = passage.markdown.slice(start, end);
    if (!cited.some((x) => x.passage === passage && x.quote === quote)) {
      cited.push({ passage, quote, start, end });
    }
  }
  const backed = new Set(cited.map((c) => c.passage.n));
  const answer = parsed.answer.replace(/\s*\[(\d+)\]/g, (m, n) => backed.has(Number(n)) ? m : "")
    .trim();
  const kinds = new Set(["uncovered", "weak_match"]);
  const modelNotes = parsed.frontier.filter((f) => kinds.has(f.kind)).map((f) => ({
    kind: f.kind as "uncovered" | "weak_match",
    note: f.note.slice(0, 500),
  }));
  return { answer, cited, dropped, modelNotes, covered: parsed.covered };
}

/**
 * Where a model's quote stands in the page's markdown: first inside the passage's own chunk,
 * then anywhere in the page — but only if the passage holds it (white space aside).
 */
function quoteSpan(passage: Passage, quote: string): [number, number] | null {
  if (findVerbatim(passage.text, quote) === null) return null;
  if (passage.offset >= 0) {
    const region = passage.markdown.slice(passage.offset, passage.offset + passage.text.length);
    const inChunk = findLoosely(region, quote);
    if (inChunk) return [passage.offset + inChunk[0], passage.offset + inChunk[1]];
  }
  return findLoosely(passage.markdown, quote);
}

/** The text of `quote` as it stands in `text`, comparing white space loosely; null if absent. */
export function findVerbatim(text: string, quote: string): string | null {
  const words = quote.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  const pattern = new RegExp(
    words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("\\s+"),
  );
  const m = pattern.exec(text);
  return m ? m[0] : null;
}
