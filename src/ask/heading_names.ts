import { headingParts } from "../markdown/chunks.ts";
import { isIdentifier } from "../text/terms.ts";
import type { Question } from "./question.ts";
import { sectionKey } from "./located_sentences.ts";
import type { Pick } from "./pick.ts";

/**
 * The name a section's own heading gives it, as the answer shows it, when that heading is a
 * name: an identifier (`LOG_STORE`, `scrape_interval`), or a heading that opens with code
 * ("`NATS_STARTUP_DELAY` environment variable", "`promtool check metrics`"). With the names it
 * holds (the code spans' text, or the identifier). Null for another heading, and for the page's
 * own (its title: SQuAD's pages have no other).
 */
export function headingLabel(section: string | null): { label: string; names: string[] } | null {
  const parts = (section ?? "").split(" > ");
  if (parts.length < 2) return null;
  const own = parts.at(-1)!.trim();
  const named = nameOfHeading(own);
  // A part under a name, headed by a word or two ("`promtool check metrics` > Flags",
  // "`<scrape_config>` > Example"), is that name's: the answer is led by both. A heading in
  // capitals is a name of its own (`BACKEND`), not a part.
  if (named || parts.length < 3 || !/^\p{Lu}\p{Ll}+(?: \p{Ll}+)?$/u.test(own)) return named;
  const parent = nameOfHeading(parts.at(-2)!.trim());
  return parent ? { label: `${parent.label}, ${own}`, names: parent.names } : null;
}

/** A heading that is a name (see `headingLabel`), as the answer shows it, or null. */
function nameOfHeading(heading: string): { label: string; names: string[] } | null {
  // As the page shows it (`headingParts`, as the chunker reads headings; a section path stored
  // before it did still carries the link and the attribute list until `deno task reindex`).
  const label = headingParts(heading).text;
  if (isIdentifier(label)) {
    const name = label.replace(/`/g, "");
    return { label: `\`${name}\``, names: [name] };
  }
  if (!/^`[^`]+`/.test(label)) return null;
  // The name without the marks around it (`<exemplars>`, `rate()`, `--agent`), and without the
  // form of its value (`PAPERLESS_PORT=<port>` names `PAPERLESS_PORT`).
  const names = [...label.matchAll(/`([^`]+)`/g)]
    .map((m) => m[1]!.split("=")[0]!.replace(/^\W+|\W+$/g, "")).filter(Boolean);
  return names.length > 0 ? { label, names } : null;
}

/** Where a unit's markdown opens with a block (fenced code, a table, a list), not a sentence. */
const OPENS_BLOCK = /^(?: {0,3}(?:`{3,}|~{3,})|\||\s*(?:[-*+]|\d{1,9}[.)])\s)/;

/**
 * In reference documentation the name of a setting, a command or a function is its section's
 * heading, and the section's sentences never repeat it: "How do we give the server longer to
 * start on Windows?" was answered from the `NATS_STARTUP_DELAY` section with "By default
 * `nats-server` allows itself up to 10 seconds to send this signal", which does not say what
 * to set. The first unit of each section an answer shows is led by that section's name
 * (`headingLabel`) when neither the unit nor the question holds it: "`NATS_STARTUP_DELAY`
 * environment variable — This adjustment can be necessary…"; a unit opening with a block gets
 * the name on a line of its own. The quote stays the unit as the page has it (the citation's
 * section names the heading).
 */
export function namedByHeading(question: Question, picks: Pick[]): Pick[] {
  const asked = question.text.toLowerCase();
  const seen = new Set<string>();
  return picks.map((p) => {
    const key = sectionKey(p.passage);
    if (seen.has(key)) return p;
    seen.add(key);
    const heading = headingLabel(p.passage.section);
    if (!heading) return p;
    const shown = p.shown.toLowerCase();
    const held = heading.names.some((n) => holdsName(shown, n) || holdsName(asked, n));
    // An item shown alone reads as a sentence, beside another as a list: it is left as it is.
    if (held || p.kind === "item") return p;
    const { label } = heading;
    // A table row read with its header ("`--lint` — Linting checks…") opens with a name too.
    const opensRow = p.kind === "section" && /^[^\n—]{1,60} — /.test(p.shown);
    if (OPENS_BLOCK.test(p.shown) || opensRow || (p.kind !== "prose" && p.kind !== "section")) {
      return { ...p, shown: `${label}:\n\n${p.shown}`, plain: `${label}: ${p.plain}` };
    }
    return { ...p, shown: `${label} — ${p.shown}`, plain: `${label} — ${p.plain}` };
  });
}

/**
 * Whether a lower-cased text holds a name, whole at its end: `PAPERLESS_OCR_LANGUAGES` in a
 * sentence is not `PAPERLESS_OCR_LANGUAGE`, the setting the section is headed by, while
 * `WOODPECKER_FORGE_RETRY` is the `FORGE_RETRY` a heading names without its product's prefix.
 */
function holdsName(text: string, name: string): boolean {
  const escaped = name.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![a-z0-9])${escaped}(?![a-z0-9_])`).test(text);
}
