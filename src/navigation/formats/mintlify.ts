import type { NavItem } from "../../markdown/nav_doc.ts";

/**
 * A Mintlify `docs.json` (or the older `mint.json`) navigation: tabs, anchors, dropdowns and
 * groups become groups, page ids pages, in the order written. Null when it has none.
 */
export function parseMintlify(
  text: string,
  pathOf: (id: string) => string | null,
): NavItem[] | null {
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  const nav = data?.navigation;
  if (Array.isArray(nav)) return entries(nav, pathOf);
  if (nav && typeof nav === "object") return entries([nav], pathOf);
  return null;
}

const NESTS = ["tabs", "anchors", "dropdowns", "versions", "languages", "groups", "pages"];
const TITLES = ["tab", "anchor", "dropdown", "version", "language", "group"];

function entries(list: unknown[], pathOf: (id: string) => string | null): NavItem[] {
  const out: NavItem[] = [];
  for (const entry of list) {
    if (typeof entry === "string") {
      const page = pathOf(entry);
      if (page) out.push({ page });
      continue;
    }
    if (!entry || typeof entry !== "object") continue;
    const e = entry as Record<string, unknown>;
    const title = TITLES.map((k) => e[k]).find((v) => typeof v === "string") as string | undefined;
    const inner: NavItem[] = [];
    for (const key of NESTS) {
      if (Array.isArray(e[key])) inner.push(...entries(e[key] as unknown[], pathOf));
    }
    if (typeof e.href === "string" && inner.length === 0) {
      out.push({ title: title ?? e.href, href: e.href });
    } else if (title === undefined) out.push(...inner);
    else out.push({ title, items: inner });
  }
  return out;
}
