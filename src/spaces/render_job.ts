import { countLinks, MAX_LINKS } from "../markdown/links.ts";
import { linkKeys, renderMarkdown } from "./render_markdown.ts";
import type { LinkTarget } from "./store.ts";

/** A page to render: its markdown and what its HTML depends on. */
export type PageToRender = {
  wikiId: string;
  path: string;
  markdown: string;
  canCreate: boolean;
  title?: string;
};

/**
 * The two CPU-bound steps of rendering a page, as plain data in and out so that a worker can
 * run them (`render_worker.ts`) as well as the server's own thread (`render_threads.ts`):
 * - `scan`: the distinct link keys the page names, or null when it holds more links than a
 *   page may (`MAX_LINKS`, repeats included): its links are then shown as text;
 * - `render`: the page's HTML, given the page each key reaches.
 */
export type RenderJob =
  | { op: "scan"; markdown: string; path: string }
  | { op: "render"; page: PageToRender; links: boolean; targets: Map<string, LinkTarget> };

/** What a `scan` gives (link keys or null) or a `render` gives (HTML). */
export type JobResult<J extends RenderJob> = J extends { op: "scan" } ? string[] | null : string;

/** Runs one job: the one rendering code, wherever it runs. */
export function runJob<J extends RenderJob>(job: J): JobResult<J> {
  if (job.op === "scan") return scanLinks(job.markdown, job.path) as JobResult<J>;
  const { page, links, targets } = job;
  return renderMarkdown(page.markdown, { ...page, targets }, { links }) as JobResult<J>;
}

/** The distinct link keys of a page, or null over the links cap. */
export function scanLinks(markdown: string, path: string): string[] | null {
  return countLinks(markdown) > MAX_LINKS ? null : [...new Set(linkKeys(markdown, path))];
}
