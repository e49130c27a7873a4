import type { Deps } from "../deps.ts";
import { type AskRetrieval, retrieveForAsk } from "../search/ask_retrieval.ts";
import { sourceFreshness } from "../sources/freshness.ts";
import { versionPageUrl } from "../lib/urls.ts";
import type { Version } from "../versions/versions.ts";
import { pinnedTexts } from "../versions/version_pages.ts";
import { selectPageMarkdown } from "./store.ts";
import { contentTerms } from "../text/terms.ts";
import { definesTopic, sameTerms } from "./topic.ts";
import { type Question, withRelated } from "./question.ts";
import { plainText, splitSentences } from "../text/sentences.ts";
import { located } from "./locate.ts";

/** A retrieved passage, numbered for synthesis. */
export type Passage = {
  n: number;
  chunkId: number;
  pageId: number;
  wiki: string;
  page: string;
  title: string;
  section: string | null;
  url: string;
  revision: number;
  updatedAt: Date;
  text: string;
  score: number;
  /** The page's markdown at `revision`, which quotes are cut from. */
  markdown: string;
  /** Where `text` starts in `markdown`, or -1 when it could not be found there. */
  offset: number;
  /** Where the page stands against its Git source (synced spaces), read with the ranking. */
  freshness: ReturnType<typeof sourceFreshness>;
  /** The version of the wiki the passage is from (absent: the live pages). */
  version?: string;
};

/**
 * The stems of the content words the passages hold (their titles, sections and texts), and of
 * the question's words they hold in a related form (`withRelated`).
 */
export function heldTerms(question: Question, passages: Passage[]): Set<string> {
  return withRelated(
    question,
    new Set(
      passages.flatMap((p) => [...contentTerms(`${p.title} ${p.section ?? ""} ${p.text}`).keys()]),
    ),
  );
}

/** Passages handed to synthesis, and at most this many from one page. */
export const MAX_PASSAGES = 8;
const PER_PAGE = 2;
/** A chunk scoring below this share of the best one is not among those search ranks relevant. */
const RELEVANT_SHARE = 0.5;
/** How many of the best chunks are considered for passages. */
const CONSIDERED = 40;

/**
 * The best passages for a question: search's chunk ranking (`rankChunks`: hybrid, re-scored, a
 * page the question names exactly first) with the texts of its best `CONSIDERED` chunks, a few
 * per page. A question that asks what something is also gets the lead of the page named
 * after it and the chunks that define it (`leadOfNamedPage`).
 */
export async function retrievePassages(
  deps: Pick<Deps, "db" | "embedder" | "log" | "config">,
  wikiIds: string[],
  question: Question,
  versions?: Map<string, Version>,
  defaults = false,
): Promise<{ passages: Passage[]; terms: AskRetrieval["terms"] }> {
  const { hits, rows, terms } = await retrieveForAsk(deps, wikiIds, question.text, CONSIDERED, {
    versions,
    defaults,
  });
  const considered = leadOfNamedPage(question, hits, rows);
  const markdown = new Map(
    (await selectPageMarkdown(deps.db, [...new Set(considered.map((h) => h.page_id))]))
      .map((r) => [Number(r.id), r.markdown]),
  );
  // A version's revisions that the live pages no longer have: their own text.
  const pinned = considered.filter((h) => h.chunk_id < 0).map((h) => rows.get(h.chunk_id)!);
  for (const [id, text] of await pinnedTexts(deps.db, pinned)) markdown.set(id, text);
  const passages: Passage[] = [];
  for (const hit of spread(considered, rows)) {
    const row = rows.get(hit.chunk_id)!;
    const version = versions?.get(row.wiki_id)?.name ?? null;
    const url = versionPageUrl(deps.config.baseUrl, row.wiki_id, version, row.path);
    passages.push({
      n: passages.length + 1,
      chunkId: row.chunk_id,
      pageId: row.page_id,
      wiki: row.wiki_id,
      page: row.path,
      title: row.title,
      section: row.heading_path.length > 0 ? row.heading_path.join(" > ") : null,
      url: row.anchor ? `${url}#${row.anchor}` : url,
      revision: row.revision,
      updatedAt: row.updated_at,
      ...located(markdown.get(Number(row.page_id)) ?? "", row.text ?? ""),
      score: hit.score,
      markdown: markdown.get(Number(row.page_id)) ?? "",
      freshness: sourceFreshness(row),
      ...(version ? { version } : {}),
    });
  }
  return { passages, terms };
}

/**
 * The chunks that become passages, in ranking order, at most `PER_PAGE` a page so that the
 * places go to several pages. But when every chunk search ranks as relevant (at least
 * `RELEVANT_SHARE` of the best score) is on one page, search says the question is about that
 * page, and the cap would give its places to pages scored at a third of it: that page's
 * relevant chunks come first, all of them up to `MAX_PASSAGES` (a reference page whose
 * settings, one a section, rank above the prose section that answers, fifth).
 */
export function spread<T extends { chunk_id: number; page_id: number; score: number }>(
  considered: T[],
  rows: Map<number, { text: string | null }>,
): T[] {
  const withText = considered.filter((h) => rows.get(h.chunk_id)!.text?.trim());
  const floor = RELEVANT_SHARE * Math.max(0, ...withText.map((h) => h.score));
  const relevant = withText.filter((h) => h.score >= floor);
  const onePage = new Set(relevant.map((h) => h.page_id)).size === 1;
  const chosen = new Set(onePage ? relevant.slice(0, MAX_PASSAGES) : []);
  const perPage = new Map<number, number>();
  for (const h of withText) {
    const count = perPage.get(h.page_id) ?? 0;
    if (chosen.size >= MAX_PASSAGES || chosen.has(h) || count >= PER_PAGE) continue;
    perPage.set(h.page_id, count + 1);
    chosen.add(h);
  }
  return withText.filter((h) => chosen.has(h));
}

/**
 * "How do tokens work?" and "What is a space?" ask what something is. The page titled with
 * that topic says it in its lead (the text above its first section), and another page may
 * define it in a sentence ("A *space* is a wiki that belongs to…"); but such a passage holds
 * the topic word once or twice among many passages full of it, and ranks below them, so it is
 * left out (eight passages, two a page). For such a question the named page's lead and up to
 * two chunks that define the topic, if among the considered chunks, move up to follow the
 * best chunk.
 */
function leadOfNamedPage<T extends { chunk_id: number }>(
  question: Question,
  considered: T[],
  rows: Map<number, { title: string; heading_path: string[]; text: string | null }>,
): T[] {
  const topic = question.topic;
  if (!topic || considered.length < 2) return considered;
  const lead = considered.find((h) => {
    const row = rows.get(h.chunk_id)!;
    return row.heading_path.length <= 1 &&
      sameTerms([...contentTerms(row.title).keys()], topic);
  });
  const defining = considered.filter((h) =>
    h !== lead &&
    splitSentences(rows.get(h.chunk_id)!.text ?? "").some((s) =>
      (s.kind === "prose" || s.kind === "item") && definesTopic(plainText(s), topic)
    )
  ).slice(0, 2);
  const up = [lead, ...defining].filter((h): h is T => h !== undefined && h !== considered[0]);
  if (up.length === 0) return considered;
  return [considered[0]!, ...up, ...considered.slice(1).filter((h) => !up.includes(h))];
}
