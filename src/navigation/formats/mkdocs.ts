import { parse } from "yaml";
import type { NavItem } from "../../markdown/nav_doc.ts";

/**
 * An `mkdocs.yml`'s docs folder and `nav:` as navigation. The YAML is read as data: tags such
 * as `!ENV` or `!!python/name:` are kept as plain values, never resolved. A section whose
 * first entry is a bare page (`- setup/index.md`) has it as its landing page (Material's
 * `navigation.indexes`). Null `items` when the file has no `nav:` (order by path then).
 */
export function parseMkdocs(
  text: string,
  pathOf: (file: string) => string | null,
): { root: string; items: NavItem[] | null } {
  let data: Record<string, unknown> = {};
  try {
    const parsed = parse(text, { logLevel: "silent", uniqueKeys: false });
    if (parsed && typeof parsed === "object") data = parsed as Record<string, unknown>;
  } catch {
    return { root: "docs/", items: null };
  }
  const dir = typeof data.docs_dir === "string" ? data.docs_dir : "docs";
  const root = dir.replace(/^\.?\/*|\/*$/g, "");
  return {
    root: root ? `${root}/` : "",
    items: Array.isArray(data.nav) ? entries(data.nav, pathOf) : null,
  };
}

function entries(list: unknown[], pathOf: (file: string) => string | null): NavItem[] {
  const out: NavItem[] = [];
  for (const entry of list) {
    if (typeof entry === "string") {
      const page = pathOf(entry);
      if (page) out.push({ page });
      continue;
    }
    if (!entry || typeof entry !== "object") continue;
    for (const [title, value] of Object.entries(entry as Record<string, unknown>)) {
      if (typeof value === "string") {
        if (/^[a-z][a-z0-9+.-]*:/i.test(value)) out.push({ title, href: value });
        else {
          const page = pathOf(value);
          if (page) out.push({ page, title });
        }
      } else if (Array.isArray(value)) {
        const items = entries(value, pathOf);
        const first = items[0];
        const landing =
          typeof value[0] === "string" && first && "page" in first && !("items" in first)
            ? (items.shift() as { page: string }).page
            : undefined;
        out.push({ title, ...(landing ? { page: landing } : {}), items });
      }
    }
  }
  return out;
}
