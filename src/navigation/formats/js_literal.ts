/**
 * Reads a JavaScript object or array literal as data (a `sidebars.js`), never running it:
 * comments dropped, keys and single-quoted strings quoted, trailing commas removed, then
 * parsed as JSON. Anything that is not a literal (a function call, a variable, a spread) makes
 * it unreadable: null.
 */
export function readJsLiteral(source: string): unknown {
  const start = literalStart(source);
  if (start < 0) return null;
  const json = toJson(source, start);
  if (json === null) return null;
  try {
    return JSON.parse(json);
  } catch {
    return null;
  }
}

/** Where the exported literal starts: after `module.exports =`, `export default` or `const x =`. */
function literalStart(source: string): number {
  const text = stripComments(source);
  const anchors = [
    /module\.exports\s*=\s*/,
    /export\s+default\s+/,
    /(?:const|let|var)\s+\w+(?:\s*:\s*[\w.]+)?\s*=\s*/,
  ];
  for (const anchor of anchors) {
    const m = anchor.exec(text);
    if (!m) continue;
    const at = m.index + m[0].length;
    if (text[at] === "{" || text[at] === "[") return source.length - text.length + at;
  }
  return -1;
}

function stripComments(source: string): string {
  // Keeps lengths equal so offsets stay valid: comments become spaces.
  return source.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, (c) => " ".repeat(c.length));
}

/** The literal at `start` as JSON text, or null when it holds anything but data. */
function toJson(source: string, start: number): string | null {
  const text = stripCommentsOutsideStrings(source.slice(start));
  let out = "";
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"' || ch === "'" || ch === "`") {
      const end = stringEnd(text, i, ch);
      if (end < 0) return null;
      const body = text.slice(i + 1, end);
      if (ch === "`" && body.includes("${")) return null;
      out += JSON.stringify(body.replace(/\\(.)/g, "$1"));
      i = end;
      continue;
    }
    if (ch === "{" || ch === "[") depth++;
    if (ch === "}" || ch === "]") {
      depth--;
      out = out.replace(/,\s*$/, "");
    }
    if (/[A-Za-z_$]/.test(ch)) {
      const word = /^[A-Za-z_$][\w$]*/.exec(text.slice(i))![0];
      const after = text.slice(i + word.length).trimStart();
      if (after.startsWith(":")) out += JSON.stringify(word);
      else if (["true", "false", "null"].includes(word)) out += word;
      else return null; // a variable, a call, a spread: not data
      i += word.length - 1;
      continue;
    }
    if (ch === "." && text.startsWith("...", i)) return null;
    out += ch;
    if (depth === 0) return out;
  }
  return null;
}

function stringEnd(text: string, from: number, quote: string): number {
  for (let i = from + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === quote) return i;
  }
  return -1;
}

function stripCommentsOutsideStrings(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"' || ch === "'" || ch === "`") {
      const end = stringEnd(text, i, ch);
      if (end < 0) return out + text.slice(i);
      out += text.slice(i, end + 1);
      i = end;
    } else if (text.startsWith("//", i)) {
      const end = text.indexOf("\n", i);
      i = end < 0 ? text.length : end - 1;
    } else if (text.startsWith("/*", i)) {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 1;
    } else out += ch;
  }
  return out;
}
