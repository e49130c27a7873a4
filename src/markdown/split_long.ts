import { closesFence, fenceOf } from "./fences.ts";

/**
 * Splits a long section into windows of at most about `maxWords` words. A section is cut
 * between its paragraphs (runs of lines between blank lines); a paragraph too long for one
 * window is cut between its lines when it has several, never inside one: a table's windows each
 * start with its header row, a code block's each open and close its fence, a list's keep one item
 * (with its indented lines) a line. Only a single line longer than a window (prose) is cut at
 * sentences, then words. Before, a long table was cut at the full stops inside its cells and its
 * rows were run together on one line, so search matched, showed and quoted rows glued together.
 */

/** A piece a window is made of; pieces of one block join with a line break, blocks with two. */
type Unit = { text: string; block: number; header?: string; footer?: string };

const words = (text: string) => text.match(/\S+/g) ?? [];
const TABLE_RULE = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;

/**
 * Blocks of a text: runs of lines between blank lines, and a fenced code block whole, its blank
 * lines and its lines' indentation kept. Before, a code block with blank lines in it was several
 * blocks, each trimmed: a window began in the middle of a configuration without its fence (its
 * lines read as prose), and a line after a blank one lost its indentation (`server_name _;` out
 * of its `server { … }` block).
 */
function blocksOf(text: string): string[] {
  const blocks: string[] = [];
  let lines: string[] = [];
  let fence: string | null = null;
  const flush = () => {
    const block = lines.join("\n").trim();
    if (block) blocks.push(block);
    lines = [];
  };
  for (const line of text.split("\n")) {
    if (fence !== null) {
      lines.push(line);
      if (closesFence(line, fence)) fence = null;
      continue;
    }
    fence = fenceOf(line);
    if (fence !== null) {
      lines.push(line);
      continue;
    }
    if (line.trim() === "") flush();
    else lines.push(line);
  }
  flush();
  return blocks;
}

/** A long block as units: its lines, with what a window must repeat around them. */
function linesOf(block: string, id: number, maxWords: number): Unit[] {
  const lines = block.split("\n");
  if (
    fenceOf(lines[0]!) !== null && lines.length > 2 && fenceOf(lines[lines.length - 1]!) !== null
  ) {
    const header = lines[0]!, footer = lines[lines.length - 1]!;
    return lines.slice(1, -1).map((text) => ({ text, block: id, header, footer }));
  }
  if (lines.length > 2 && lines[0]!.includes("|") && TABLE_RULE.test(lines[1]!)) {
    const header = `${lines[0]}\n${lines[1]}`;
    return lines.slice(2).map((text) => ({ text, block: id, header }));
  }
  // A list item's continuation lines (indented) stay with the item.
  const items: string[] = [];
  for (const line of lines) {
    if (items.length > 0 && /^\s/.test(line)) items[items.length - 1] += `\n${line}`;
    else items.push(line);
  }
  return items.flatMap((item) =>
    words(item).length <= maxWords
      ? [{ text: item, block: id }]
      : wordWindows(item, maxWords).map((text) => ({ text, block: id }))
  );
}

function wordWindows(text: string, maxWords: number): string[] {
  const out: string[] = [];
  for (const sentence of text.split(/(?<=[.!?])\s+/)) {
    const w = words(sentence);
    for (let i = 0; i < w.length; i += maxWords) out.push(w.slice(i, i + maxWords).join(" "));
  }
  return out;
}

function unitsOf(text: string, maxWords: number): Unit[] {
  const units: Unit[] = [];
  let id = 0;
  for (const block of blocksOf(text)) {
    id++;
    if (words(block).length <= maxWords) units.push({ text: block, block: id });
    else if (block.includes("\n")) units.push(...linesOf(block, id, maxWords));
    // One long line of prose: its sentences, each its own block as before.
    else for (const s of wordWindows(block, maxWords)) units.push({ text: s, block: ++id });
  }
  return units;
}

/** A window's text: a table's header or a fence opens each block that has one, a fence closes. */
function join(units: Unit[]): string {
  let out = "";
  units.forEach((u, i) => {
    const prev = units[i - 1], next = units[i + 1];
    if (prev) out += prev.block === u.block ? "\n" : "\n\n";
    if (u.header !== undefined && prev?.block !== u.block) out += `${u.header}\n`;
    out += u.text;
    if (u.footer !== undefined && next?.block !== u.block) out += `\n${u.footer}`;
  });
  return out;
}

/**
 * What a window carries over into the next: nothing when a table or code block goes on (its
 * header or fence opens the next window), a list's last whole items within `overlapWords` when
 * it goes on, else the last `overlapWords` words, as windows of prose always carried.
 */
function carried(piece: Unit[], next: Unit, overlapWords: number): Unit[] {
  const last = piece[piece.length - 1]!;
  if (last.block === next.block && next.header !== undefined) return [];
  if (last.block === next.block) {
    // A list goes on: its last whole items within the overlap.
    const kept: Unit[] = [];
    let count = 0;
    for (let i = piece.length - 1; i >= 0 && piece[i]!.block === next.block; i--) {
      const n = words(piece[i]!.text).length;
      if (count + n > overlapWords) break;
      kept.unshift(piece[i]!);
      count += n;
    }
    return kept;
  }
  const tail = words(join(piece)).slice(-overlapWords).join(" ");
  return tail ? [{ text: tail, block: -1 }] : [];
}

/** Windows of at most about `maxWords` words, `overlapWords` carried between them. */
export function splitLongText(text: string, maxWords: number, overlapWords: number): string[] {
  if (words(text).length <= maxWords) return [text];
  const pieces: string[] = [];
  let current: Unit[] = [];
  let count = 0;
  let fresh = 0; // units in `current` that were not carried over
  for (const unit of unitsOf(text, maxWords)) {
    const n = words(unit.text).length;
    if (count + n > maxWords && fresh > 0) {
      pieces.push(join(current));
      current = carried(current, unit, overlapWords);
      count = current.reduce((sum, u) => sum + words(u.text).length, 0);
      fresh = 0;
    }
    current.push(unit);
    count += n;
    fresh++;
  }
  if (fresh > 0) pieces.push(join(current));
  return pieces;
}

/**
 * A window's text without what `splitLongText` repeated into it, as the page has it: a table's
 * header row before rows further down, a fence opened before or closed after the lines of a code
 * block it cut. The candidates, in the order to try them (a window may start or end in place).
 */
export function withoutRepeats(text: string): string[] {
  const lines = text.split("\n");
  const closes = lines.length > 1 && fenceOf(lines[lines.length - 1]!) !== null;
  const table = lines.length > 2 && lines[0]!.includes("|") && TABLE_RULE.test(lines[1]!);
  const opens = !table && fenceOf(lines[0]!) !== null;
  const head = table ? 2 : opens ? 1 : 0;
  const out: string[] = [];
  if (closes) out.push(lines.slice(0, -1).join("\n"));
  if (head > 0) out.push(lines.slice(head).join("\n"));
  if (closes && head > 0 && lines.length > head + 1) out.push(lines.slice(head, -1).join("\n"));
  return out.filter((t) => t.trim() !== "");
}
