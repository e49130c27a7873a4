import type { Db } from "../db/db.ts";
import { linkKeys, renderMarkdown } from "./render_markdown.ts";
import { selectLinkTargets } from "./store.ts";

/**
 * Renders markdown as a page of a wiki: looks up which of its links reach existing pages,
 * then renders (`renderMarkdown`). Used for saved pages, old revisions and previews alike.
 */
export async function renderPage(
  db: Db,
  page: { wikiId: string; path: string; markdown: string; canCreate: boolean; title?: string },
): Promise<string> {
  const targets = await selectLinkTargets(db, page.wikiId, linkKeys(page.markdown, page.path));
  return renderMarkdown(page.markdown, { ...page, targets });
}
