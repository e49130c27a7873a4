import type { Db } from "../db/db.ts";
import { pageHref } from "../kit/web/space_urls.ts";
import { selectHeadings } from "../search/mod.ts";
import { matchTitles, type TitleEntry, type TitleMatch } from "../search/title_match.ts";

/**
 * The titles and headings of a wiki's pages that match a half-typed query (`matchTitles`:
 * prefixes, one typo in longer words, exact first), pages in `order` (the wiki's reading
 * order) first among equals. Headings point at their anchor.
 */
export async function suggestTitles(
  db: Db,
  wikiId: string,
  order: { path: string; title: string }[],
  query: string,
  limit = 6,
): Promise<TitleMatch[]> {
  const at = new Map(order.map((p, i) => [p.path, i]));
  const pages: TitleEntry[] = order.map((p) => ({
    title: p.title,
    section: null,
    href: pageHref(wikiId, p.path),
    path: p.path,
  }));
  const headings: TitleEntry[] = (await selectHeadings(db, wikiId))
    .filter((h) => at.has(h.path) && h.heading.trim() !== h.title.trim())
    .sort((a, b) => at.get(a.path)! - at.get(b.path)!)
    .map((h) => ({
      title: h.title,
      section: h.heading,
      href: `${pageHref(wikiId, h.path)}#${h.anchor}`,
      path: h.path,
    }));
  return matchTitles([...pages, ...headings], query, limit);
}
