import { sha256Hex } from "../lib/sha256.ts";
import { type Chunk, chunkMarkdown, headingsOf } from "./chunks.ts";
import { docsText } from "./docs_blocks.ts";
import { splitFrontMatter } from "./front_matter.ts";
import { extractLinks, type ParsedLink } from "./links.ts";

/**
 * What a page's markdown yields: its title, its front matter's `description` ("" without one),
 * links and passages, and its content hash.
 */
export type ParsedPage = {
  title: string;
  description: string;
  links: ParsedLink[];
  chunks: Chunk[];
  contentHash: string;
};

/**
 * Parses a page. The title is `title` when given (an import's own field), else the front
 * matter's `title`, else the first heading, else the path. Throws on malformed front matter.
 */
export async function parsePage(
  path: string,
  markdown: string,
  title?: string,
): Promise<ParsedPage> {
  const { data, body } = splitFrontMatter(markdown);
  const fromFront = typeof data.title === "string" || typeof data.title === "number"
    ? String(data.title).trim()
    : "";
  const heading = headingsOf(body).find((h) => h.text !== "")?.text ?? "";
  const pageTitle = (title?.trim() || fromFront || stripInline(heading) || path).slice(0, 500);
  return {
    title: pageTitle,
    description: typeof data.description === "string" ? data.description.trim().slice(0, 500) : "",
    links: extractLinks(markdown, path),
    // Passages are what assistants read (`docsText`): callouts, tabs and steps as text, never
    // their syntax (`{% hint %}`, `:::note`, `!!! tip`, `<Tabs>`), which search would match.
    chunks: chunkMarkdown(docsText(body)),
    contentHash: await sha256Hex(`${pageTitle}\n${markdown}`),
  };
}

/** Drops the simplest inline markup from a heading used as a title. */
function stripInline(text: string): string {
  return text.replace(/\[\[([^\]|]+)\|?([^\]]*)\]\]/g, (_, t, l) => l || t)
    .replace(/[*_`]/g, "").trim();
}
