import type { SourcePage } from "../../src/importer/read_sources.ts";
import { STOPWORDS } from "../../src/text/terms.ts";

/** A page of an eval set, as `pages.jsonl` holds it. */
export type EvalPage = { path: string; title?: string; markdown: string };

/** A query of an eval set with its relevant page paths. */
export type EvalQuery = { id: string; query: string; gold: string[]; answers?: string[] };

/** The eval sets under ../shared/eval (SQuAD and SciFact), read once. */
export type EvalSets = {
  squad: { pages: EvalPage[]; queries: EvalQuery[] };
  scifact: { pages: EvalPage[]; queries: EvalQuery[] };
};

/** Reads `pages.jsonl` and `queries.jsonl` of both eval sets from `dir`. */
export async function readEvalSets(dir: string): Promise<EvalSets> {
  const read = async <T>(file: string): Promise<T[]> =>
    (await Deno.readTextFile(`${dir}/${file}`)).split("\n").filter((l) => l.trim())
      .map((l) => JSON.parse(l) as T);
  return {
    squad: {
      pages: await read<EvalPage>("squad/pages.jsonl"),
      queries: await read<EvalQuery>("squad/queries.jsonl"),
    },
    scifact: {
      pages: await read<EvalPage>("scifact/pages.jsonl"),
      queries: await read<EvalQuery>("scifact/queries.jsonl"),
    },
  };
}

/** Eval pages as import sources. */
export function asSources(pages: EvalPage[]): SourcePage[] {
  return pages.map((p) => ({
    name: p.path,
    path: p.path,
    markdown: p.markdown,
    ...(p.title !== undefined ? { title: p.title } : {}),
  }));
}

/** How the bench wiki is made, for the results file. */
export const BENCH_WIKI = "squad/<path> and scifact/<path> pages, then copy-k/<path> copies with " +
  '"the" inserted between the k-th pair of content words of each sentence (the same lexemes ' +
  "and postings, a vector of their own), written by scripts/bench/bulk_load.ts (the rows an " +
  "import leaves, many pages per statement)";

/** A copy of an eval page, with the page it copies. */
export type ReplicaPage = SourcePage & { copyOf: EvalPage };

/**
 * Pages number `from` to `to - 1` of the endless replication of `base`: copy k (1, 2, …) of
 * page i sits at `copy-k/<path>` and has the word "the" inserted between the k-th pair of
 * adjacent content words of each sentence. "the" is a stopword of PostgreSQL's 'english'
 * configuration and of the offline embedder, so a copy has exactly the lexemes and term
 * counts of its page (its BM25 postings are the page's) but a vector of its own: identical
 * copies would share one HNSW element (pgvector keeps up to 10 rows per element) and shrink
 * the index below what a corpus of that size needs.
 */
export function replicaPages(base: EvalPage[], from: number, to: number): ReplicaPage[] {
  const out: ReplicaPage[] = [];
  for (let j = from; j < to; j++) {
    const page = base[j % base.length]!;
    const k = Math.floor(j / base.length) + 1;
    out.push({
      name: `copy-${k}/${page.path}`,
      path: `copy-${k}/${page.path}`,
      markdown: splitWordPair(page.markdown, k),
      ...(page.title !== undefined ? { title: page.title } : {}),
      copyOf: page,
    });
  }
  return out;
}

/** Two adjacent words of plain prose, each between spaces or line ends. */
const WORD_PAIR = /(?<=^| )([A-Za-z]{2,}) (?=([A-Za-z]{2,})(?: |$))/gm;

/** Code spans, HTML-like tags, markdown links and wikilinks: text no copy may change. */
const SYNTAX = /`[^`]*`?|<[^>]*>?|\[\[[^\]]*\]\]|\[[^\]]*\]\([^)]*\)?/g;

/**
 * Inserts "the" into the k-th distinct pair of adjacent content words (cycling when there
 * are fewer) of every sentence of prose, so that every chunk of a copy (long paragraphs are
 * split between sentences) differs from the page's; headings, tables, code, tags and links
 * are left as they are.
 */
export function splitWordPair(markdown: string, k: number): string {
  return markdown.split("\n").map((line) =>
    /^\s*[#|]/.test(line) ? line : line.split(/(?<=[.!?]) /).map((sentence) => {
      const prose = sentence.replace(SYNTAX, (m) => "\u0000".repeat(m.length));
      const gaps: number[] = [];
      const seen = new Set<string>();
      for (const m of prose.matchAll(WORD_PAIR)) {
        const [a, b] = [m[1]!.toLowerCase(), m[2]!.toLowerCase()];
        if (STOPWORDS.has(a) || STOPWORDS.has(b) || seen.has(`${a} ${b}`)) continue;
        seen.add(`${a} ${b}`);
        gaps.push(m.index! + m[1]!.length);
      }
      if (gaps.length === 0) return sentence;
      const at = gaps[(k - 1) % gaps.length]!;
      return `${sentence.slice(0, at)} the${sentence.slice(at)}`;
    }).join(" ")
  ).join("\n");
}

/** Interleaves lists: the first of each, then the second of each, and so on. */
export function interleave<T>(...lists: T[][]): T[] {
  const out: T[] = [];
  for (let i = 0; i < Math.max(...lists.map((l) => l.length)); i++) {
    for (const l of lists) if (i < l.length) out.push(l[i]!);
  }
  return out;
}
