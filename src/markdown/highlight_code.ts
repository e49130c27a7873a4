import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import c from "highlight.js/lib/languages/c";
import cpp from "highlight.js/lib/languages/cpp";
import csharp from "highlight.js/lib/languages/csharp";
import css from "highlight.js/lib/languages/css";
import diff from "highlight.js/lib/languages/diff";
import dockerfile from "highlight.js/lib/languages/dockerfile";
import go from "highlight.js/lib/languages/go";
import ini from "highlight.js/lib/languages/ini";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import kotlin from "highlight.js/lib/languages/kotlin";
import markdown from "highlight.js/lib/languages/markdown";
import php from "highlight.js/lib/languages/php";
import python from "highlight.js/lib/languages/python";
import ruby from "highlight.js/lib/languages/ruby";
import rust from "highlight.js/lib/languages/rust";
import shell from "highlight.js/lib/languages/shell";
import sql from "highlight.js/lib/languages/sql";
import swift from "highlight.js/lib/languages/swift";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";

// highlight.js's core with the languages docs use most; each registers its own aliases
// (`sh`, `js`, `ts`, `py`, `yml`, `html`, `toml`…). Registered once, at first use.
const LANGUAGES = {
  bash,
  c,
  cpp,
  csharp,
  css,
  diff,
  dockerfile,
  go,
  ini,
  java,
  javascript,
  json,
  kotlin,
  markdown,
  php,
  python,
  ruby,
  rust,
  shell,
  sql,
  swift,
  typescript,
  xml,
  yaml,
};

/** Longer code is shown as plain text: highlighting it would cost a request too much time. */
export const MAX_HIGHLIGHT_CHARS = 50_000;

let registered = false;

/**
 * A fenced code block's text as highlighted HTML (`<span class="hljs-…">`, text escaped by
 * highlight.js), for markdown-it's `highlight` option; "" (markdown-it escapes the text
 * itself) for a language not known here, none given, or code too long. Never guesses a
 * language: a guess is slow and often wrong.
 */
export function highlightCode(code: string, info: string): string {
  const language = info.trim().split(/[\s{]/)[0]!.toLowerCase();
  if (!language || code.length > MAX_HIGHLIGHT_CHARS) return "";
  if (!registered) {
    for (const [name, grammar] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, grammar);
    registered = true;
  }
  if (!hljs.getLanguage(language)) return "";
  try {
    return hljs.highlight(code, { language, ignoreIllegals: true }).value;
  } catch {
    return "";
  }
}
