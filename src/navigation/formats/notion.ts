/** A Notion export's page id: 32 hex digits after a space, at the end of a name. */
export const NOTION_ID = / [0-9a-f]{32}(?=\.(md|markdown|mdx|csv)$|\/|$)/i;
const NOTION_IDS = / [0-9a-f]{32}(?=\.(md|markdown|mdx|csv)$|\/|$)/gi;
const ENCODED_IDS = /%20[0-9a-f]{32}(?=\.(md|markdown|mdx|csv)|%2F|\/|\)|$)/gi;

/** A path of a Notion export without its page ids: `Team 0123…cdef/Onboarding 4567…89ab` → `Team/Onboarding`. */
export function stripNotionIds(path: string): string {
  return path.replace(NOTION_IDS, "");
}

/**
 * A Notion page's links to its sibling pages without the ids (`Onboarding%20 4567….md` →
 * `Onboarding.md`), so they reach the pages as the space names them.
 */
export function rewriteNotionLinks(markdown: string): string {
  return markdown.replace(
    /(\]\()(<?)([^)\s>]+|[^)>]+(?=>))(>?\))/g,
    (whole, open, lt, href, close) => {
      if (/^[a-z][a-z0-9+.-]*:/i.test(href) || !/[0-9a-f]{32}/i.test(href)) return whole;
      return `${open}${lt}${href.replace(ENCODED_IDS, "").replace(NOTION_IDS, "")}${close}`;
    },
  );
}
