import type { Deps } from "../deps.ts";
import {
  rankChunks,
  type RankedChunk,
  type RankOptions,
  termEvidence,
  withTexts,
} from "./search_wikis.ts";
import type { ChunkCandidate } from "./store.ts";

/** What `ask` reads from search for one question, in one call. */
export type AskRetrieval = {
  /** The best `considered` chunks of the production ranking that still have their text. */
  hits: RankedChunk[];
  /** Each ranked chunk's row (page, heading path, anchor, text, source freshness). */
  rows: Map<number, ChunkCandidate>;
  /**
   * For each term of the query (PostgreSQL lexemes): its document frequency across the wikis,
   * their chunk count, and which of the considered chunks hold it (the verdict's evidence).
   */
  terms: { term: string; df: number; n: number; chunks: number[] }[];
};

/**
 * Everything `ask` needs from search (src/ask/passages.ts): the hybrid chunk ranking search
 * answers with (`rankChunks`), the texts of its best `considered` chunks, and the wiki-wide
 * evidence of the query's terms over them. One call, so that the path of a question from
 * retrieval to its citations stays in `ask/` after it.
 */
export async function retrieveForAsk(
  deps: Pick<Deps, "db" | "embedder" | "log" | "config">,
  wikiIds: string[],
  query: string,
  considered: number,
  /** The versions asked for, by wiki, and whether the wikis' default versions apply. */
  pinned: Pick<RankOptions, "versions" | "defaults"> = {},
): Promise<AskRetrieval> {
  const { hits, rows } = await rankChunks(deps, wikiIds, query, "hybrid", {
    texts: considered,
    ...pinned,
  });
  const best = await withTexts(deps, hits.slice(0, considered), rows);
  const terms = best.length === 0
    ? []
    : await termEvidence(deps.db, wikiIds, query, best.map((h) => h.chunk_id));
  return { hits: best, rows, terms };
}
