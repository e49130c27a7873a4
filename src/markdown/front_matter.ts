import { parse } from "yaml";

/** A page's front matter and the markdown after it. */
export type FrontMatter = { data: Record<string, unknown>; body: string; bodyOffset: number };

const FENCE = /^---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

/**
 * Splits YAML front matter (`---` … `---` at the very top) from the body.
 * Throws an `Error` naming the problem when the YAML is malformed or not a mapping.
 */
export function splitFrontMatter(markdown: string): FrontMatter {
  const match = FENCE.exec(markdown);
  if (!match) return { data: {}, body: markdown, bodyOffset: 0 };
  let data: unknown;
  try {
    data = parse(match[1] ?? "") ?? {};
  } catch (error) {
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new Error(`Front matter is not valid YAML: ${message}`);
  }
  if (typeof data !== "object" || Array.isArray(data) || data === null) {
    throw new Error("Front matter must be a YAML mapping of keys to values");
  }
  return {
    data: data as Record<string, unknown>,
    body: markdown.slice(match[0].length),
    bodyOffset: match[0].length,
  };
}
