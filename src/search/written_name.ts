import type { ChunkHit } from "./store.ts";
import { tradeFirst } from "./first_place.ts";

/** What the rule reads of a ranked chunk: its heading path and text (null when not read). */
type Written = { heading_path: string[]; text: string | null };

/** How close to the best chunk one that writes the name the query names must score to trade. */
const WRITTEN_NAME_SHARE = 0.4;

/**
 * The names a query writes as a program does: a setting, variable or option of several parts
 * joined by underscores (`CORS_ORIGIN_WHITELIST`, `client_auth_type`) or a camel-case name
 * (`successCondition`, `workloadRef`), each part a word: not a biologist's name such as "mRNA",
 * "scFv", "bnAb" or `CRF01_1b2k`, nor "iPhone" (SciFact's claims name such things; read as
 * program names they cost its nDCG@10 0.003). Hyphenated words are English ("built-in", "read-only"), a
 * dotted one is as often a version or a host, and a command-line flag is written in every usage
 * example that passes it: "Where does Prometheus store its data by default when run with
 * --agent?" moved from the flags' table, whose chunk did not hold `--agent`, to a how-to section
 * whose command line did.
 */
export function writtenNames(query: string): string[] {
  const names = query.match(
    /(?<![\w.-])(?:[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z][A-Za-z0-9]*)+|[a-z]{2,}[A-Z][a-z]{2,}[A-Za-z0-9]*)(?![\w-])/g,
  );
  return [...new Set((names ?? []).map((n) => n.toLowerCase()))];
}

/** Whether `text` writes `name` whole: not as a part of a longer name. */
function writes(text: string, name: string): boolean {
  const lower = text.toLowerCase();
  for (let at = lower.indexOf(name); at >= 0; at = lower.indexOf(name, at + 1)) {
    const before = lower[at - 1] ?? " ";
    const after = lower[at + name.length] ?? " ";
    if (!/[\w-]/.test(before) && !/[\w-]/.test(after)) return true;
  }
  return false;
}

/**
 * The chunk that writes a name the query writes (`writtenNames`) comes first, when the best one
 * does not: among the best `depth`, it trades places and scores with the best (`tradeFirst`)
 * when it scores at least `WRITTEN_NAME_SHARE` of it. The lexical leg reads a name's parts as
 * words, so a section holding them apart or in another name ranked above the one that writes
 * the name: "Our old config still has CORS_ORIGIN_WHITELIST in it from years ago. Does that
 * still do anything?" found `CORS_ALLOWED_ORIGIN_REGEXES` ("Previously this setting was called
 * `CORS_ORIGIN_REGEX_WHITELIST`") before `CORS_ALLOWED_ORIGINS` ("Previously this setting was
 * called `CORS_ORIGIN_WHITELIST`, which still works as an alias").
 */
export function writtenNameFirst(
  hits: ChunkHit[],
  details: Map<number, Written>,
  query: string,
  depth: number,
): ChunkHit[] {
  const names = writtenNames(query);
  if (names.length === 0 || hits.length < 2) return hits;
  const written = (h: ChunkHit) => {
    const d = details.get(h.chunk_id);
    if (!d || d.text === null) return false;
    const text = `${d.heading_path.join("\n")}\n${d.text}`;
    return names.some((n) => writes(text, n));
  };
  if (written(hits[0]!)) return hits;
  return tradeFirst(hits, depth, WRITTEN_NAME_SHARE, written);
}
