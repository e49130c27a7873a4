/**
 * How much MaxScore would save on a stored wiki: for each query of an eval set, the BM25
 * postings of its terms (as the lexical leg scores them), top 10 by `exhaustiveTopK` and by
 * `maxScoreTopK`; prints the share of queries with the same top 10 and the share of postings
 * MaxScore scored. `deno run --lock=deno.dev.lock -A scripts/bench/top_k_share.ts <wiki>
 * <queries.jsonl> [N]` with DATABASE_URL (or DATA_DIR) naming the store holding the wiki.
 */
import { loadConfig } from "../../src/config/config.ts";
import { createLog } from "../../src/lib/log.ts";
import { BM25 } from "../../src/search/fusion.ts";
import { lexicalText } from "../../src/text/terms.ts";
import { exhaustiveTopK, maxScoreTopK, type ScoredPostings } from "../../src/search/top_k.ts";
import { openDeps } from "../../src/server.ts";

const [wiki, file, count] = Deno.args;
if (!wiki || !file) throw new Error("usage: top_k_share.ts <wiki> <queries.jsonl> [N]");
const queries = (await Deno.readTextFile(file)).split("\n").filter((l) => l.trim())
  .map((l) => JSON.parse(l) as { query: string }).slice(0, count ? Number(count) : undefined);
const deps = await openDeps(loadConfig(Deno.env.toObject()), createLog("error"));
const { k1, b, headingWeight } = BM25;
let same = 0;
let scored = 0;
let all = 0;
try {
  for (const { query } of queries) {
    const rows = await deps.db<{ term: string; chunk_id: number; score: number }>`
      WITH q AS (
        SELECT lexeme AS term FROM unnest(to_tsvector('english', ${lexicalText(query)}::text))
      ), s AS (
        SELECT chunks::float8 AS n, length_sum::float8 / greatest(chunks, 1) AS avgdl
        FROM search_stats WHERE wiki_id = ${wiki}
      ), w AS (
        SELECT d.term, ln(1 + (s.n - d.df + 0.5) / (d.df + 0.5)) AS idf, s.avgdl
        FROM q JOIN term_stats d ON d.term = q.term AND d.wiki_id = ${wiki}, s
        WHERE d.df > 0
      )
      SELECT w.term, p.chunk_id::int AS chunk_id, (w.idf * x.tf * (${k1}::float8 + 1)
        / (x.tf + ${k1}::float8 * (1 - ${b}::float8 + ${b}::float8 * p.length / w.avgdl)))::float8
        AS score
      FROM w JOIN chunk_terms p ON p.wiki_id = ${wiki} AND p.term = w.term
      CROSS JOIN LATERAL (SELECT p.tf_body + ${headingWeight}::float8 * p.tf_heading AS tf) x
      ORDER BY w.term, p.chunk_id`;
    const lists = new Map<string, ScoredPostings>();
    for (const r of rows) {
      const list = lists.get(r.term) ?? { ids: [], scores: [], max: 0 };
      list.ids.push(r.chunk_id);
      list.scores.push(r.score);
      list.max = Math.max(list.max, r.score);
      lists.set(r.term, list);
    }
    const exact = exhaustiveTopK([...lists.values()], 10);
    const fast = maxScoreTopK([...lists.values()], 10);
    if (JSON.stringify(exact.hits) === JSON.stringify(fast.hits)) same++;
    scored += fast.scored;
    all += exact.scored;
  }
  console.log(JSON.stringify({
    wiki,
    queries: queries.length,
    same_top10_share: same / queries.length,
    postings_scored_share: Math.round(1000 * scored / all) / 1000,
    postings_per_query: {
      exhaustive: Math.round(all / queries.length),
      maxscore: Math.round(scored / queries.length),
    },
  }));
} finally {
  await deps.db.close();
}
