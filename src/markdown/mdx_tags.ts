/**
 * MDX component tags as `docs_blocks.ts` reads them: the one-line tag pattern, an opening tag
 * written over several lines, and Mintlify's API fields (`<ParamField>`, `<ResponseField>`),
 * whose attributes are the content.
 */

// Attribute values may hold `>` (`type="Record<string, string>"`), so quoted values and `{…}`
// expressions are read whole.
export const TAG =
  /^\s*<(\/?)([A-Za-z][\w.]*)((?:\s+(?:"[^"]*"|'[^']*'|\{[^{}]*\}|[^>"'{}])*?)?)\s*(\/?)>\s*$/;

/**
 * A component's opening tag written over several lines (`<Card` / `title="…"` / `>`), from line
 * `at` (`first`, as dedented), as one line, with the index of its last line; null when line `at`
 * opens no such tag. Without this its attribute lines were shown as text.
 */
export function openingTag(
  lines: string[],
  at: number,
  first: string,
): { line: string; end: number } | null {
  if (TAG.test(first) || !/^\s*<[A-Za-z][\w.]*(\s|$)/.test(first)) return null;
  let text = first.trimEnd();
  for (let j = at + 1; j < lines.length && j <= at + 20; j++) {
    const next = lines[j]!.trim();
    if (next === "" || /^```|^~~~/.test(next)) return null;
    text += ` ${next}`;
    if (TAG.test(text)) return { line: text, end: j };
  }
  return null;
}

export const FIELD_TAGS = new Set(["paramfield", "responsefield"]);

/**
 * A Mintlify `<ParamField>` or `<ResponseField>` as the line its page shows above the field's
 * description: its name, type, default and whether it is required (`` **`limit`** · `number` ·
 * default: `10` · required ``). In reference pages these attributes are the content (a CLI
 * page's flags are `type="--log-level"`), so dropping the tag lost them. The description stays
 * in the same paragraph unless the field closes on its own line.
 */
export function fieldLine(
  attr: (key: string) => string,
  attrs: string,
  selfClosing: boolean,
): string[] {
  const name = ["name", "query", "path", "body", "header", "param"].map(attr).find((v) => v);
  const code = (v: string) => v.includes("`") ? `\`\` ${v} \`\`` : `\`${v}\``;
  const parts = [
    name ? `**${code(name)}**` : "",
    attr("type") ? code(attr("type")) : "",
    attr("default") ? `default: ${code(attr("default"))}` : "",
    /(^|\s)required(\s|=|$)/.test(attrs) ? "required" : "",
    /(^|\s)deprecated(\s|=|$)/.test(attrs) ? "deprecated" : "",
  ].filter(Boolean);
  if (parts.length === 0) return [];
  return selfClosing ? ["", parts.join(" · "), ""] : ["", parts.join(" · ")];
}
