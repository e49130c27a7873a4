// The visual editor of the page editor (src/spaces/editor_page.tsx), bundled by
// scripts/editor/build.sh into src/web/assets/vendor/visual_editor.js. Milkdown's Crepe
// (ProseMirror + remark, MIT) with the features a docs writer uses: the block menu ("/"),
// the selection toolbar, link tooltips, lists, tables, images. Markdown stays the stored
// form: the editor reads the page's markdown and gives markdown back; `[[wikilinks]]` are
// a node of their own so they survive the round trip unescaped.
import { CrepeBuilder } from "@milkdown/crepe/builder";
import { blockEdit } from "@milkdown/crepe/feature/block-edit";
import { toolbar } from "@milkdown/crepe/feature/toolbar";
import { linkTooltip } from "@milkdown/crepe/feature/link-tooltip";
import { listItem } from "@milkdown/crepe/feature/list-item";
import { table } from "@milkdown/crepe/feature/table";
import { placeholder } from "@milkdown/crepe/feature/placeholder";
import { cursor } from "@milkdown/crepe/feature/cursor";
import {
  editorViewCtx,
  parserCtx,
  remarkCtx,
  remarkStringifyOptionsCtx,
  serializerCtx,
} from "@milkdown/kit/core";
import { $nodeSchema, $remark } from "@milkdown/kit/utils";
import {
  blockquoteSchema,
  clearTextInCurrentBlockCommand,
  imageSchema,
  wrapInBlockTypeCommand,
} from "@milkdown/kit/preset/commonmark";
import { commandsCtx } from "@milkdown/kit/core";
import { TextSelection } from "@milkdown/kit/prose/state";
import { uploadConfig } from "@milkdown/kit/plugin/upload";
import { remarkGFMPlugin } from "@milkdown/kit/preset/gfm";
import { defaultHandlers } from "mdast-util-to-markdown";
import styles from "./styles.built.css";

const WIKILINK = /\[\[([^\[\]|\n]+?)(?:\|([^\[\]\n]+?))?\]\]/g;

/** A remark plugin: `[[Target|label]]` in text becomes a `wikiLink` node, and back. */
function remarkWikiLinks() {
  const split = (node) => {
    if (!node.children) return;
    const out = [];
    for (const child of node.children) {
      if (child.type !== "text" || !child.value.includes("[[")) {
        split(child);
        out.push(child);
        continue;
      }
      let at = 0;
      for (const m of child.value.matchAll(WIKILINK)) {
        if (m.index > at) out.push({ type: "text", value: child.value.slice(at, m.index) });
        out.push({ type: "wikiLink", target: m[1].trim(), label: m[2]?.trim() ?? "" });
        at = m.index + m[0].length;
      }
      if (at < child.value.length) out.push({ type: "text", value: child.value.slice(at) });
    }
    node.children = out;
  };
  return (tree) => split(tree);
}

const wikiLinkRemark = $remark("wikiLinks", () => remarkWikiLinks);

/** The wikilink as an inline atom: shown as its label (or target), stored as `[[…]]`. */
const wikiLinkSchema = $nodeSchema("wiki_link", () => ({
  group: "inline",
  inline: true,
  atom: true,
  selectable: true,
  attrs: { target: { default: "" }, label: { default: "" } },
  parseDOM: [{
    tag: "a[data-wikilink]",
    getAttrs: (dom) => ({ target: dom.dataset.wikilink, label: dom.dataset.label ?? "" }),
  }],
  toDOM: (node) => [
    "a",
    {
      "data-wikilink": node.attrs.target,
      "data-label": node.attrs.label,
      class: "wikilink",
      href: "#",
      title: `Link to the page "${node.attrs.target}"`,
    },
    node.attrs.label || node.attrs.target,
  ],
  parseMarkdown: {
    match: (node) => node.type === "wikiLink",
    runner: (state, node, type) => {
      state.addNode(type, { target: node.target, label: node.label });
    },
  },
  toMarkdown: {
    match: (node) => node.type.name === "wiki_link",
    runner: (state, node) => {
      state.addNode("wikiLink", undefined, undefined, {
        target: node.attrs.target,
        label: node.attrs.label,
      });
    },
  },
}));

const CALLOUT = /^> \\\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]\n>\n/i;

/**
 * A callout is a quote whose first line is its kind (`> [!NOTE]`, as GitHub and Obsidian
 * write them): remark escapes the bracket and puts a blank quoted line after the marker's
 * paragraph; a person writes neither.
 */
function calloutMarker(quote) {
  return quote.replace(CALLOUT, (_m, kind) => `> [!${kind.toUpperCase()}]\n`);
}

/** The block menu's "Callout": a quote holding the kind's marker, the caret after it. */
function insertCallout(ctx) {
  const commands = ctx.get(commandsCtx);
  commands.call(clearTextInCurrentBlockCommand.key);
  commands.call(wrapInBlockTypeCommand.key, { nodeType: blockquoteSchema.type(ctx) });
  const view = ctx.get(editorViewCtx);
  const { state } = view;
  const { $from } = state.selection;
  const paragraph = state.schema.nodes.paragraph;
  let tr = state.tr.insertText("[!NOTE]", $from.pos);
  const after = tr.mapping.map($from.end());
  tr = tr.insert(after + 1, paragraph.create());
  tr = tr.setSelection(TextSelection.create(tr.doc, after + 2));
  view.dispatch(tr.scrollIntoView());
}

const CALLOUT_ICON =
  '<svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true"><path fill="currentColor" d="M11 7h2v6h-2zm0 8h2v2h-2zM12 2 1 21h22z" opacity=".85"/></svg>';

/**
 * Pasted and dropped files go to the wiki's files through `onUpload(file)` (the page's own
 * upload, attach.js), which answers `{ href, name, contentType }`: an image becomes a markdown
 * image, any other file a link to it.
 */
function uploadThrough(ctx, onUpload) {
  ctx.update(uploadConfig.key, (prev) => ({
    ...prev,
    uploader: async (files, schema) => {
      const nodes = [];
      for (const file of files) {
        const answer = await onUpload(file);
        if (!answer) continue;
        if (answer.contentType.startsWith("image/")) {
          nodes.push(schema.nodes.image.create({ src: answer.href, alt: answer.name, title: "" }));
        } else {
          const link = schema.marks.link.create({ href: answer.href });
          nodes.push(schema.text(answer.name, [link]));
        }
      }
      return nodes;
    },
  }));
}

/**
 * The editor's tree as a person would have written it: a list is tight unless one of its
 * items holds more than one paragraph, a column has no alignment unless one was chosen
 * (left is the default), and an empty line or table cell is empty (not a line break).
 */
function tidy(node) {
  if (node.type === "list") {
    const loose = node.children.some((item) =>
      item.children.filter((c) => c.type !== "list").length > 1
    );
    node.spread = loose;
    for (const item of node.children) item.spread = loose;
  }
  if (node.type === "table" && node.align) {
    node.align = node.align.map((a) => (a === "left" ? null : a));
  }
  // Milkdown keeps an empty paragraph or cell as "<br />"; a person leaves it empty.
  const blank = (n) => (n.children ?? []).every((c) => isLineBreak(c) || c.value === "");
  if (node.type === "tableCell" && blank(node)) node.children = [];
  else if (node.children) {
    node.children = node.children.filter((c) => !(c.type === "paragraph" && blank(c)));
  }
  node.children?.forEach(tidy);
  return node;
}

function isLineBreak(node) {
  return node.type === "break" || (node.type === "html" && /^<br\s*\/?>$/i.test(node.value));
}

/** What a person types: "-" bullets, "_" emphasis, "**" strong, fenced code, "---" rules. */
function writeLikeAPerson(ctx) {
  // An image without a title has none (Milkdown passes null, which ProseMirror refuses, and
  // the image would be dropped from the document).
  ctx.update(imageSchema.key, (prev) => (c) => {
    const schema = prev(c);
    return {
      ...schema,
      parseMarkdown: {
        match: schema.parseMarkdown.match,
        runner: (state, node, type) =>
          state.addNode(type, {
            src: node.url ?? "",
            alt: node.alt ?? "",
            title: node.title ?? "",
          }),
      },
    };
  });
  ctx.set(remarkGFMPlugin.options.key, { tablePipeAlign: false });
  ctx.update(remarkStringifyOptionsCtx, (options) => ({
    ...options,
    bullet: "-",
    emphasis: "_",
    strong: "*",
    fence: "`",
    fences: true,
    rule: "-",
    listItemIndent: "one",
    handlers: {
      ...options.handlers,
      wikiLink: (node) => `[[${node.target}${node.label ? `|${node.label}` : ""}]]`,
      root: (node, parent, state, info) => defaultHandlers.root(tidy(node), parent, state, info),
      blockquote: (node, parent, state, info) =>
        calloutMarker(defaultHandlers.blockquote(node, parent, state, info)),
    },
  }));
}

const FRONT_MATTER = /^---\r?\n[\s\S]*?\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

/**
 * The page's markdown as the editor changed it, touching only what was edited: the text is
 * cut into its top-level blocks (remark's positions), each block is read and written by the
 * editor's own parser and serializer, and a block whose written form is still in the edited
 * document (in order) is kept as the author wrote it, byte for byte. Only new or changed
 * blocks take the editor's form, so editing one paragraph of a page leaves its tables'
 * padding, its list markers and its unknown syntax alone.
 */
function spliceEdits(ctx, original, doc) {
  const parse = ctx.get(parserCtx);
  const serialize = ctx.get(serializerCtx);
  const schema = doc.type.schema;
  const write = (node) => serialize(schema.topNodeType.create(null, [node])).trim();
  const tree = ctx.get(remarkCtx).parse(original);
  const blocks = tree.children.filter((c) => c.position).map((c) => ({
    start: c.position.start.offset,
    end: c.position.end.offset,
  }));
  const a = []; // [block index, written form] for each top-level node of each block
  blocks.forEach((block, k) => {
    const parsed = parse(original.slice(block.start, block.end));
    parsed.forEach((node) => a.push([k, write(node)]));
  });
  const b = []; // the written form of each top-level node now (empty lines left out)
  doc.forEach((node) => {
    const written = write(node);
    if (written !== "") b.push(written);
  });
  // Longest common subsequence of the written forms.
  const n = a.length, m = b.length;
  const lcs = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i][j] = a[i][1] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const matchOf = new Array(m).fill(-1);
  const matchedInBlock = new Array(blocks.length).fill(0);
  const nodesInBlock = new Array(blocks.length).fill(0);
  a.forEach(([k]) => nodesInBlock[k]++);
  for (let i = 0, j = 0; i < n && j < m;) {
    if (a[i][1] === b[j]) {
      matchOf[j] = i;
      matchedInBlock[a[i][0]]++;
      i++, j++;
    } else if (lcs[i + 1][j] >= lcs[i][j + 1]) i++;
    else j++;
  }
  const kept = (k) => nodesInBlock[k] > 0 && matchedInBlock[k] === nodesInBlock[k];
  const pieces = []; // [block index or -1, text]
  for (let j = 0; j < m; j++) {
    const i = matchOf[j];
    const k = i >= 0 ? a[i][0] : -1;
    if (k >= 0 && kept(k)) {
      if (pieces.at(-1)?.[0] !== k) {
        pieces.push([k, original.slice(blocks[k].start, blocks[k].end)]);
      }
    } else pieces.push([-1, b[j]]);
  }
  // A block the editor does not show (a link definition, a comment) stays where it was:
  // after the block that came before it, when that block is still there.
  blocks.forEach((block, z) => {
    if (nodesInBlock[z] > 0) return;
    let at = 0;
    pieces.forEach(([k], p) => {
      if (k >= 0 && k < z) at = p + 1;
    });
    pieces.splice(at, 0, [z, original.slice(block.start, block.end)]);
  });
  let out = "";
  pieces.forEach(([k, text], p) => {
    const prev = pieces[p - 1];
    if (p === 0) out += k === 0 ? original.slice(0, blocks[0].start) : "";
    else if (k >= 0 && prev[0] === k - 1) out += original.slice(blocks[k - 1].end, blocks[k].start);
    else out += "\n\n";
    out += text;
  });
  const last = pieces.at(-1);
  out += last && last[0] === blocks.length - 1 ? original.slice(blocks[last[0]].end) : "\n";
  return out;
}

/**
 * Opens the visual editor in `root` over `markdown`. `onChange()` is called after each edit.
 * Returns the editor's handle: `markdown()` (the page's text with the edits spliced in, or
 * the text it was given, byte for byte, while nothing was edited), `serialize()` (the
 * editor's own form of the whole page), `caret()`, `insertWikiLink()`, `focus()`,
 * `destroy()`. Front matter is kept out of the editor and put back in front unchanged.
 */
export async function openVisualEditor(
  root,
  markdown,
  { onChange, onUpload, placeholderText } = {},
) {
  if (!document.getElementById("visual-editor-styles")) {
    const style = document.createElement("style");
    style.id = "visual-editor-styles";
    style.textContent = styles;
    document.head.append(style);
  }
  const front = FRONT_MATTER.exec(markdown)?.[0] ?? "";
  const body = markdown.slice(front.length);
  const builder = new CrepeBuilder({ root, defaultValue: body });
  builder.addFeature(listItem).addFeature(linkTooltip).addFeature(cursor)
    .addFeature(table).addFeature(toolbar)
    .addFeature(blockEdit, {
      buildMenu: (menu) =>
        menu.addGroup("wiki", "Wiki").addItem("callout", {
          label: "Callout",
          icon: CALLOUT_ICON,
          onRun: insertCallout,
        }),
    })
    .addFeature(placeholder, { text: placeholderText ?? "Type / for blocks", mode: "doc" });
  builder.editor.config(writeLikeAPerson).use(wikiLinkRemark).use(wikiLinkSchema);
  if (onUpload) builder.editor.config((ctx) => uploadThrough(ctx, onUpload));
  builder.on((api) => {
    api.markdownUpdated((_ctx, next, previous) => {
      if (next !== previous) onChange?.();
    });
  });
  await builder.create();
  const ctx = builder.editor.ctx;
  const view = () => ctx.get(editorViewCtx);
  const initial = view().state.doc;
  /** Whether the document differs from the one the page's text gave. */
  const edited = () => !view().state.doc.eq(initial);
  return {
    markdown: () =>
      edited()
        ? front + (body.trim() ? spliceEdits(ctx, body, view().state.doc) : builder.getMarkdown())
        : markdown,
    serialize: () => front + builder.getMarkdown(),
    get edited() {
      return edited();
    },
    /** The caret's place on screen and the text before it in its block. */
    caret() {
      const v = view();
      const { from, $from } = v.state.selection;
      const before = $from.parent.textBetween(0, $from.parentOffset, undefined, "\ufffc");
      return { coords: v.coordsAtPos(from), before };
    },
    /** Replaces the `length` characters before the caret with a wikilink to `target`. */
    insertWikiLink(target, length, label = "") {
      const v = view();
      const { from } = v.state.selection;
      const node = v.state.schema.nodes.wiki_link.create({ target, label });
      v.dispatch(v.state.tr.replaceWith(from - length, from, node).scrollIntoView());
      v.focus();
    },
    focus: () => view().focus(),
    destroy: () => builder.destroy(),
  };
}
