/**
 * The content blocks of docs tools, read from their own syntax into one form: callouts
 * (GitBook `{% hint %}`, MkDocs `!!! note` / `??? tip`, Docusaurus `:::note`, Mintlify `<Note>`,
 * `<Warning>`, `<Tip>`, Notion `<aside>`), tabs (`{% tabs %}`, `=== "Tab"`, `<Tabs>`/`<TabItem>`,
 * `<CodeGroup>`), steps (`<Steps>`/`<Step>`) and collapsible sections (`<Accordion>`,
 * `<Expandable>`). MDX `import`/`export` lines are dropped and unknown components keep only
 * their text: nothing is ever run. The page's markdown is stored as written; this is applied
 * when it is shown (`renderMarkdown`) and when assistants read it (`docsText`).
 *
 * The blocks come out as marker lines (`\u001f open callout warning <title>` … `\u001f close`),
 * each on its own between blank lines, for the renderer's block rule or `markersToText`.
 */

import { FIELD_TAGS, fieldLine, openingTag, TAG } from "./mdx_tags.ts";
import { VERSION_MARK } from "../text/callouts.ts";

export const MARKER = "\u001f";

export type BlockKind =
  | "callout"
  | "tabs"
  | "tab"
  | "steps"
  | "step"
  | "details"
  | "definition";

const open = (
  kind: BlockKind,
  ...args: string[]
) => ["", `${MARKER} open ${kind} ${args.map(encodeURIComponent).join(" ")}`.trimEnd(), ""];
const close = (kind: BlockKind) => ["", `${MARKER} close ${kind}`, ""];

const FENCE = /^\s*(`{3,}|~{3,})/;
const CALLOUT_TAGS: Record<string, string> = {
  note: "note",
  info: "info",
  tip: "tip",
  warning: "warning",
  danger: "danger",
  check: "success",
  callout: "note",
  aside: "note",
};

/** Whether a page's markdown may hold any docs block (a cheap test before the full pass). */
export function mayHoldDocsBlocks(markdown: string, definitions = false): boolean {
  return /\{%|^\s*(!!!|\?\?\?|===\s+"|:::|<[A-Za-z]|import\s|export\s)/m.test(markdown) ||
    VERSION_NOTE_LINE.test(markdown) ||
    (definitions && DEFINITION_LINE.test(markdown));
}

/**
 * The markdown with its docs blocks as marker lines (unchanged when it holds none). With
 * `definitions`, a definition list's entries too (the reading view shows them as one); the text
 * assistants read and passages are made from keeps them as written: an entry is one unit of an
 * answer there ("Defaults to 8000." stays with the setting it is the default of).
 */
export function docsBlocks(markdown: string, options: { definitions?: boolean } = {}): string {
  const definitions = options.definitions ?? false;
  if (!mayHoldDocsBlocks(markdown, definitions)) return markdown;
  return convert(markdown.split(/\r?\n/), definitions).join("\n");
}

/** Converts lines (recursively for indented bodies). */
function convert(lines: string[], definitions: boolean): string[] {
  const out: string[] = [];
  const stack: BlockKind[] = []; // open blocks of the closing-tag syntaxes
  let fence: string | null = null;
  let depth = 0; // components open around this line: their bodies are dedented 2 spaces each
  for (let i = 0; i < lines.length; i++) {
    const line = dedent(lines[i]!, depth * 2);
    const f = FENCE.exec(line);
    if (fence) {
      if (f && f[1]!.startsWith(fence)) fence = null;
      out.push(line);
      continue;
    }
    if (f) {
      fence = f[1]![0]!.repeat(f[1]!.length);
      out.push(line);
      continue;
    }
    const indented = indentedBlock(lines, i, definitions);
    if (indented) {
      out.push(...indented.lines);
      i = indented.end - 1;
      continue;
    }
    if (IMPORT_EXPORT.test(line)) {
      // An MDX import or export runs to the next blank line: none of it is shown or run.
      while (i + 1 < lines.length && lines[i + 1]!.trim() !== "") i++;
      continue;
    }
    const tag = openingTag(lines, i, line);
    const joined = tag?.line ?? line;
    if (tag) i = tag.end;
    depth = Math.max(0, depth + componentDepth(joined));
    const handled = gitbookLine(joined, stack) ?? colonLine(joined, stack) ??
      jsxLine(joined, stack);
    if (handled) out.push(...handled);
    else out.push(stripInlineJsx(line));
  }
  while (stack.length > 0) out.push(...close(stack.pop()!));
  return out;
}

/** A line without up to `spaces` of its leading spaces. */
function dedent(line: string, spaces: number): string {
  if (spaces === 0) return line;
  const lead = /^ */.exec(line)![0].length;
  return line.slice(Math.min(lead, spaces));
}

/** +1 for a component's own opening line, -1 for its closing line, else 0. */
function componentDepth(line: string): number {
  const m = TAG.exec(line);
  if (!m || m[4] === "/" || !/^[A-Z]|^(aside|details)$/.test(m[2]!)) return 0;
  return m[1] === "/" ? -1 : 1;
}

const ADMONITION = /^(!!!|\?\?\?\+?)\s+([\w-]+)(?:\s+[\w-]+)*(?:\s+"([^"]*)")?\s*$/;
const CONTENT_TAB = /^===!?\s+"([^"]*)"\s*$/;
/**
 * A version annotation (the mkdocs-version-annotations plugin): `+++ 1.2.0` added, `+/- 1.2.0`
 * changed, `--- 1.2.0` removed, its note indented under it (or none). Shown as that plugin
 * shows it, a callout titled "Added in version 1.2.0".
 */
const VERSION_NOTE = new RegExp(String.raw`^${VERSION_MARK}[ \t]*$`);
const VERSION_NOTE_LINE = new RegExp(VERSION_NOTE.source, "m");
const VERSION_NOTES: Record<string, [string, string]> = {
  "+++": ["info", "Added in version"],
  "+/-": ["info", "Changed in version"],
  "---": ["warning", "Removed in version"],
};
/** A definition (MkDocs' def_list, PHP Markdown Extra): `: text`, its body indented under it. */
const DEFINITION = /^ {0,3}:[ \t]+(\S.*)$/;
const DEFINITION_LINE = new RegExp(DEFINITION.source, "m");

/** An MkDocs admonition or a run of content tabs with their indented bodies, from line `at`. */
function indentedBlock(
  lines: string[],
  at: number,
  definitions: boolean,
): { lines: string[]; end: number } | null {
  const line = lines[at]!;
  if (VERSION_NOTE.test(line)) {
    const body = bodyOf(lines, at + 1);
    const [mark, version] = line.trim().split(/[ \t]+/);
    const [kind, title] = VERSION_NOTES[mark!]!;
    return {
      lines: [
        ...open("callout", kind, `${title} ${version}`),
        ...convert(body.lines, definitions),
        ...close("callout"),
      ],
      end: body.end,
    };
  }
  const admonition = ADMONITION.exec(line);
  if (admonition) {
    const body = bodyOf(lines, at + 1);
    const kind = admonition[1]!.startsWith("???") ? "details" : "callout";
    const mode = admonition[1] === "???+" ? "open" : "";
    return {
      lines: [
        ...open(
          "callout",
          admonition[2]!,
          admonition[3] ?? "",
          kind === "details" ? `collapsible${mode}` : "",
        ),
        ...convert(body.lines, definitions),
        ...close("callout"),
      ],
      end: body.end,
    };
  }
  const definition = definitions ? DEFINITION.exec(line) : null;
  if (definition) {
    // MkDocs reference pages describe each setting under its heading this way (read as plain
    // markdown, the marker showed and the indented rest became a code block). The entry is its
    // first paragraph's lines, which need no indent, then the body indented under it.
    let next = at + 1;
    while (next < lines.length && lines[next]!.trim() !== "" && !DEFINITION.test(lines[next]!)) {
      next++;
    }
    const body = bodyOf(lines, next);
    const first = [definition[1]!, ...lines.slice(at + 1, next).map((l) => l.trim())];
    return {
      lines: [
        ...open("definition"),
        ...convert([...first, ...body.lines], definitions),
        ...close("definition"),
      ],
      end: body.end,
    };
  }
  if (!CONTENT_TAB.test(line)) return null;
  const out = [...open("tabs")];
  let i = at;
  while (i < lines.length) {
    const tab = CONTENT_TAB.exec(lines[i]!);
    if (!tab) break;
    const body = bodyOf(lines, i + 1);
    out.push(...open("tab", tab[1]!), ...convert(body.lines, definitions), ...close("tab"));
    i = body.end;
    while (i < lines.length && lines[i]!.trim() === "" && CONTENT_TAB.test(lines[i + 1] ?? "")) i++;
  }
  out.push(...close("tabs"));
  return { lines: out, end: i };
}

/** The lines indented under a block's first line (blank lines inside kept), dedented. */
function bodyOf(lines: string[], from: number): { lines: string[]; end: number } {
  let end = from;
  let last = from;
  while (end < lines.length) {
    const l = lines[end]!;
    if (l.trim() === "") {
      end++;
      continue;
    }
    if (!/^(\t| {4})/.test(l)) break;
    end++;
    last = end;
  }
  const body = lines.slice(from, last).map((l) => l.replace(/^(\t| {4})/, ""));
  return { lines: body, end: last };
}

const LIQUID = /^\s*\{%-?\s*(\w[\w-]*)\s*(.*?)\s*-?%\}\s*$/;

/** A GitBook `{% … %}` line as marker lines (or nothing), or null when it is not one. */
function gitbookLine(line: string, stack: BlockKind[]): string[] | null {
  const m = LIQUID.exec(line);
  if (!m) return null;
  const tag = m[1]!.toLowerCase();
  const attr = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(m[2]!)?.[1] ?? "";
  switch (tag) {
    case "hint":
      stack.push("callout");
      return open("callout", attr("style") || "info", "");
    case "tabs":
      stack.push("tabs");
      return open("tabs");
    case "tab":
      stack.push("tab");
      return open("tab", attr("title"));
    case "endhint":
    case "endtabs":
    case "endtab":
      return closeTo(stack, tag === "endhint" ? "callout" : tag === "endtabs" ? "tabs" : "tab");
    case "page-ref":
    case "content-ref": {
      const href = attr("page") || attr("url");
      return href ? ["", `[${href.replace(/\.md$/, "")}](${href})`, ""] : [];
    }
    case "embed": {
      const href = attr("url");
      return href ? ["", `<${href}>`, ""] : [];
    }
    default:
      return []; // endcontent-ref, endembed, code, endcode, swagger…: their text stays
  }
}

/** Closes the innermost open block of `kind` (and any left open inside it). */
function closeTo(stack: BlockKind[], kind: BlockKind): string[] {
  if (!stack.includes(kind)) return [];
  const out: string[] = [];
  while (stack.length > 0) {
    const top = stack.pop()!;
    out.push(...close(top));
    if (top === kind) break;
  }
  return out;
}

const COLON_OPEN =
  /^\s*:{3,}\s*(note|tip|info|caution|warning|danger|important|success|secondary)\b\s*(.*?)\s*$/i;

/** A Docusaurus `:::note Title` or its closing `:::`. */
function colonLine(line: string, stack: BlockKind[]): string[] | null {
  const m = COLON_OPEN.exec(line);
  if (m) {
    stack.push("callout");
    return open("callout", m[1]!.toLowerCase(), m[2]!.replace(/^\[|\]$/g, ""));
  }
  if (/^\s*:{3,}\s*$/.test(line) && stack.includes("callout")) return closeTo(stack, "callout");
  return null;
}

const IMPORT_EXPORT =
  /^(import\s+(\{[^}]*\}|[\w$]+|\*\s+as\s+\w+)(\s*,\s*\{[^}]*\})?\s+from\s+['"]|import\s+['"]|export\s+(const|default|function|let|class)\s)/;

/** A JSX component line (own line) as marker lines, or null. Unknown components lose the tag. */
function jsxLine(line: string, stack: BlockKind[]): string[] | null {
  if (IMPORT_EXPORT.test(line)) return [];
  if (/^\s*\{\/\*.*\*\/\}\s*$/.test(line)) return [];
  const m = TAG.exec(line);
  if (!m) return null;
  const closing = m[1] === "/";
  const name = m[2]!;
  const lower = name.toLowerCase();
  const attrs = m[3] ?? "";
  const attr = (key: string) =>
    new RegExp(`\\b${key}=(?:"([^"]*)"|'([^']*)'|\\{["'\`]([^"'\`]*)["'\`]\\})`).exec(attrs)
      ?.slice(1).find((v) => v !== undefined) ?? "";
  const kind: BlockKind | null = lower in CALLOUT_TAGS || lower === "admonition"
    ? "callout"
    : lower === "tabs" || lower === "codegroup"
    ? "tabs"
    : lower === "tab" || lower === "tabitem"
    ? "tab"
    : lower === "steps"
    ? "steps"
    : lower === "step"
    ? "step"
    : lower === "accordion" || lower === "expandable" || lower === "details"
    ? "details"
    : null;
  if (!kind) {
    if (lower === "card" && !closing) {
      const href = attr("href");
      const title = attr("title");
      return title ? ["", href ? `**[${title}](${href})**` : `**${title}**`, ""] : [];
    }
    if (FIELD_TAGS.has(lower) && !closing) return fieldLine(attr, attrs, m[4] === "/");
    return []; // an unknown component: its tag goes, what it holds stays
  }
  if (closing) return closeTo(stack, kind);
  if (m[4] === "/") return [];
  stack.push(kind);
  switch (kind) {
    case "callout":
      return open(
        "callout",
        lower === "admonition" ? attr("type") || "note" : CALLOUT_TAGS[lower]!,
        attr("title"),
      );
    case "tab":
      return open("tab", attr("title") || attr("label") || attr("value"));
    case "step":
      return open("step", attr("title"));
    case "details":
      return open("details", attr("title") || attr("summary"));
    default:
      return open(kind);
  }
}

/** Inline components in a line of text keep their text (`<Highlight>green</Highlight>` → green). */
function stripInlineJsx(line: string): string {
  if (!/<\/?[A-Z]/.test(line)) return line;
  return line.replace(/<\/?[A-Z][\w.]*(?:\s+[^<>]*?)?\s*\/?>/g, "");
}

/** One marker line read back: open or close, the kind, its arguments. */
export function readMarker(
  line: string,
): { open: boolean; kind: BlockKind; args: string[] } | null {
  if (!line.startsWith(MARKER)) return null;
  const [, verb, kind, ...args] = line.split(" ");
  return { open: verb === "open", kind: kind as BlockKind, args: args.map(decodeURIComponent) };
}

/** A callout's kind as readers see it: `warning` → `Warning`. */
export function calloutLabel(kind: string): string {
  const k = kind.toLowerCase() || "note";
  return k.charAt(0).toUpperCase() + k.slice(1);
}

/**
 * The markdown assistants read (`get_page`, `.md` for agents): callouts as blockquotes that
 * name their kind, tabs and steps as labelled sections, no JSX, no MDX imports.
 */
export function docsText(markdown: string): string {
  const marked = docsBlocks(markdown);
  if (marked === markdown) return markdown;
  const out: string[] = [];
  const quotes: number[] = []; // indexes in the stack of callouts: their lines get "> "
  const stack: BlockKind[] = [];
  let step = 0;
  for (const line of marked.split("\n")) {
    const marker = readMarker(line);
    const depth = quotes.length;
    const prefix = "> ".repeat(depth);
    if (!marker) {
      const blank = line.trim() === "" && /^[> ]*$/.test(out[out.length - 1] ?? "");
      if (!blank) out.push(depth > 0 ? `${prefix}${line}`.trimEnd() : line);
      continue;
    }
    if (!marker.open) {
      const kind = stack.pop();
      if (kind === "callout") {
        quotes.pop();
        while (out.length > 0 && /^>[> ]*$/.test(out[out.length - 1]!)) out.pop();
        out.push("> ".repeat(quotes.length).trimEnd());
      }
      continue;
    }
    stack.push(marker.kind);
    const [first = "", second = ""] = marker.args;
    if (marker.kind === "callout") {
      const title = second ? `${calloutLabel(first)}: ${second}` : calloutLabel(first);
      out.push(`${prefix}> **${title}**`.trimEnd(), `${prefix}>`);
      quotes.push(stack.length);
    } else if (marker.kind === "tab") out.push(`${prefix}**Tab: ${first}**`);
    else if (marker.kind === "steps") step = 0;
    else if (marker.kind === "step") out.push(`${prefix}**Step ${++step}: ${first}**`);
    else if (marker.kind === "details") out.push(`${prefix}**${first}**`);
  }
  return out.join("\n").replace(/\n{3,}/g, "\n\n").replace(/^(> ?)+\n(?=\n|$)/gm, "");
}
