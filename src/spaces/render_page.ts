import type { Db } from "../db/db.ts";
import { sha256Hex } from "../lib/sha256.ts";
import { sizedLru } from "../lib/sized_lru.ts";
import { type PageToRender, runJob, scanLinks } from "./render_job.ts";
import { type RunJob, withRenderThread } from "./render_threads.ts";
import { selectLinkTargets } from "./store.ts";

/**
 * Pages from this size (characters) are rendered once per content and context, then served
 * from `rendered`: a 1 MB page takes a few hundred ms of CPU to parse, the event loop's time
 * (issue 26.3). Smaller pages render in a few ms, and keying them would cost about as much.
 */
export const CACHE_FROM = 32 * 1024;

/**
 * What large pages rendered to, and the distinct link keys their markdown names, by a digest
 * of everything the output depends on (below): at most 32 M characters (~64 MB) together.
 * Keys are content, never ids or revision numbers, so an entry cannot go stale: a page edited,
 * a target page created, renamed or retitled, another role's view, each is another key. That
 * holds however many processes serve one database: each keeps its own copy, none is ever
 * wrong, so nothing needs invalidating.
 */
const rendered = sizedLru<string | string[] | null>(
  32 * 1024 * 1024,
  (v) => typeof v === "string" ? v.length : (v?.join("").length ?? 0) + 64,
);

/** How many large pages were rendered rather than served from `rendered` (tests read it). */
export const largeRenders = { count: 0 };

/**
 * Renders markdown as a page of a wiki: looks up which of its links reach existing pages,
 * then renders (`renderMarkdown`). Used for saved pages, old revisions and previews alike.
 * A page stored before links were capped (`MAX_LINKS`, repeats included) and holding more is
 * shown with its links as text, so no page takes seconds to view (issue 26.3). A large page
 * is rendered once and its HTML kept (`rendered`); its link scan and render run in the render
 * worker (`render_threads.ts`), so the few hundred ms a 1 MB page takes never hold the event
 * loop.
 */
export async function renderPage(db: Db, page: PageToRender): Promise<string> {
  if (page.markdown.length < CACHE_FROM) {
    const keys = scanLinks(page.markdown, page.path);
    const targets = keys ? await selectLinkTargets(db, page.wikiId, keys) : new Map();
    return runJob({ op: "render", page, links: keys !== null, targets });
  }
  return await withRenderThread((run) => renderLarge(db, page, run));
}

async function renderLarge(db: Db, page: PageToRender, run: RunJob): Promise<string> {
  const content = await sha256Hex(`${page.path}\0${page.markdown}`);
  let keys = rendered.get(`keys:${content}`) as string[] | null | undefined;
  if (keys === undefined) {
    keys = await run({ op: "scan", markdown: page.markdown, path: page.path });
    rendered.set(`keys:${content}`, keys);
  }
  const targets = keys ? await selectLinkTargets(db, page.wikiId, keys) : new Map();
  const context = JSON.stringify([
    page.wikiId,
    page.title ?? null,
    page.canCreate,
    keys !== null,
    [...targets].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0),
  ]);
  const key = `html:${content}:${await sha256Hex(context)}`;
  const kept = rendered.get(key);
  if (typeof kept === "string") return kept;
  const html = await run({ op: "render", page, links: keys !== null, targets });
  largeRenders.count++;
  rendered.set(key, html);
  return html;
}
