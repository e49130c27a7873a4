import type { Db } from "../db/db.ts";
import { countLinks, MAX_LINKS } from "../markdown/links.ts";
import { linkKeys, renderMarkdown } from "./render_markdown.ts";
import { selectLinkTargets } from "./store.ts";

/**
 * Renders markdown as a page of a wiki: looks up which of its links reach existing pages,
 * then renders (`renderMarkdown`). Used for saved pages, old revisions and previews alike.
 * A page stored before links were capped (`MAX_LINKS`, repeats included) and holding more is
 * shown with its links as text, so no page takes seconds to view (issue 26.3).
 */
export async function renderPage(
  db: Db,
  page: { wikiId: string; path: string; markdown: string; canCreate: boolean; title?: string },
): Promise<string> {
  if (countLinks(page.markdown) > MAX_LINKS) {
    return renderMarkdown(page.markdown, { ...page, targets: new Map() }, { links: false });
  }
  const targets = await selectLinkTargets(db, page.wikiId, linkKeys(page.markdown, page.path));
  return renderMarkdown(page.markdown, { ...page, targets });
}
