import type { NavItem } from "../../markdown/nav_doc.ts";
import { parse } from "yaml";

/** A `.gitbook.yaml`'s root folder and summary file (defaults: the repository root, `SUMMARY.md`). */
export function gitbookConfig(text: string | null): { root: string; summary: string } {
  let data: Record<string, unknown> = {};
  try {
    const parsed = text ? parse(text) : null;
    if (parsed && typeof parsed === "object") data = parsed as Record<string, unknown>;
  } catch {
    // An unreadable config: GitBook's defaults.
  }
  const root = typeof data.root === "string" ? data.root.replace(/^\.?\/*|\/*$/g, "") : "";
  const structure = (data.structure ?? {}) as Record<string, unknown>;
  const summary = typeof structure.summary === "string" ? structure.summary : "SUMMARY.md";
  return { root: root ? `${root}/` : "", summary };
}

const ITEM = /^(\s*)[*+-]\s+\[([^\]]*)\]\(<?([^)>]*)>?\)\s*$/;
const PART = /^#{2,}\s+(.+?)\s*#*\s*$/;

/**
 * A GitBook `SUMMARY.md` as navigation: `## Part` headings are groups, list items link pages
 * (a nested list makes its item the landing page of a group), links out stay links.
 * `pathOf` turns a link target into a page path (null when it names no page).
 */
export function parseSummary(text: string, pathOf: (href: string) => string | null): NavItem[] {
  const top: NavItem[] = [];
  let into = top;
  // The open list items by indent: their children go into `items` once one is nested.
  let stack: { indent: number; list: NavItem[]; at: number }[] = [];
  for (const line of text.split(/\r?\n/)) {
    const part = PART.exec(line);
    if (part) {
      const group = { title: plain(part[1]!), items: [] as NavItem[] };
      top.push(group);
      into = group.items;
      stack = [];
      continue;
    }
    const m = ITEM.exec(line);
    if (!m) continue;
    const indent = m[1]!.replace(/\t/g, "    ").length;
    while (stack.length > 0 && stack[stack.length - 1]!.indent >= indent) stack.pop();
    const parent = stack[stack.length - 1];
    let list = into;
    if (parent) {
      const owner = parent.list[parent.at]!;
      if (!("items" in owner)) {
        const page = "page" in owner ? owner.page : undefined;
        parent.list[parent.at] = { title: owner.title ?? "", ...(page ? { page } : {}), items: [] };
      }
      list = (parent.list[parent.at] as { items: NavItem[] }).items;
    }
    const title = plain(m[2]!);
    const href = m[3]!.trim();
    const page = /^[a-z][a-z0-9+.-]*:/i.test(href) ? null : pathOf(href);
    if (page) list.push({ page, title });
    else if (href) list.push({ title, href });
    else list.push({ title, items: [] });
    stack.push({ indent, list, at: list.length - 1 });
  }
  return top;
}

/** A title as written in a summary, without its markup (`<a id>` anchors, `\(` escapes). */
function plain(text: string): string {
  return text.replace(/<[^>]*>/g, "").replace(/\\([\\`*_{}[\]()#+\-.!"])/g, "$1").trim();
}

/** A navigation as a GitBook `SUMMARY.md` (what the export writes once the order was edited). */
export function writeSummary(items: NavItem[], fileOf: (page: string) => string): string {
  const lines = ["# Table of contents", ""];
  const walk = (list: NavItem[], depth: number) => {
    for (const item of list) {
      const pad = "  ".repeat(depth);
      if ("href" in item) lines.push(`${pad}* [${item.title}](${item.href})`);
      else if ("items" in item && !item.page && depth === 0) {
        lines.push("", `## ${item.title}`, "");
        walk(item.items, 0);
        lines.push("");
      } else {
        const title = item.title ?? item.page ?? "";
        lines.push(
          item.page
            ? `${pad}* [${title}](${encodeURI(fileOf(item.page))})`
            : `${pad}* [${title}]()`,
        );
        if ("items" in item) walk(item.items, depth + 1);
      }
    }
  };
  walk(items, 0);
  return lines.join("\n").replace(/\n{3,}/g, "\n\n").trimEnd() + "\n";
}
