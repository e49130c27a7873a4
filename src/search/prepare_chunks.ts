import type { WriteDeps } from "../deps.ts";
import type { ParsedPage } from "../markdown/parse_page.ts";
import { EmbedderError } from "../lib/embedder.ts";
import { storesVectors } from "./fusion.ts";
import type { ChunkInput } from "./store.ts";

/**
 * Gives a parsed page's chunks their heading text (title and headings, which BM25 weighs
 * above the body) and their vectors. If the embedder fails, the chunks are stored without
 * vectors and the write goes through: nothing the user wrote waits on an embedding service.
 * `deno task reindex` fills them in later.
 */
export async function prepareChunks(
  deps: WriteDeps,
  parsed: ParsedPage,
): Promise<{ chunks: ChunkInput[]; embedder: string | null }> {
  const [first] = await prepareChunksOf(deps, [parsed]);
  return first!;
}

/**
 * `prepareChunks` for many pages with one call to the embedder (bulk import): one request
 * per batch to a remote model instead of one per page. If it fails, no page of the batch
 * gets vectors. An embedder whose vectors are not stored (the offline one, `storesVectors`)
 * is not called: nothing reads them.
 */
export async function prepareChunksOf(
  deps: WriteDeps,
  pages: ParsedPage[],
): Promise<{ chunks: ChunkInput[]; embedder: string | null }[]> {
  const prepared = pages.map((parsed) =>
    parsed.chunks.map((c) => ({
      ord: c.ord,
      headingPath: c.headingPath,
      anchor: c.anchor,
      headingText: chunkHeadingText(parsed, c),
      text: c.text,
      embedding: null as Float32Array | null,
    }))
  );
  if (!storesVectors(deps.embedder)) return prepared.map((chunks) => ({ chunks, embedder: null }));
  const all = prepared.flat();
  try {
    const vectors = await deps.embedder.embed(all.map((c) => `${c.headingText}\n\n${c.text}`));
    vectors.forEach((v, i) => all[i]!.embedding = v);
    return prepared.map((chunks) => ({ chunks, embedder: deps.embedder.id }));
  } catch (error) {
    if (!(error instanceof EmbedderError)) throw error;
    deps.log.warn("page stored without vectors: the embedder failed", { error: error.message });
    return prepared.map((chunks) => ({ chunks, embedder: null }));
  }
}

/**
 * What BM25 weighs above a chunk's text: the title and headings (`headingTextOf`), and for the
 * page's first chunk its front matter's `description`. Documentation sites (Mintlify, Docusaurus,
 * Hugo) keep a page's one-line summary there and show it under the title, and it is not in the
 * body: "Tags let you group runs…" named the page's topic in words no passage held, so search
 * could not find the page by them. The first chunk is the page's lead (or its first section),
 * which the summary introduces; the page's other chunks are told apart by their own headings.
 */
export function chunkHeadingText(
  parsed: Pick<ParsedPage, "title" | "description">,
  chunk: { ord: number; headingPath: string[] },
): string {
  const heading = headingTextOf(parsed.title, chunk.headingPath);
  return chunk.ord === 0 && parsed.description ? `${heading} ${parsed.description}` : heading;
}

/** The title followed by the headings that are not just the title again. */
export function headingTextOf(title: string, headingPath: string[]): string {
  const headings = headingPath.filter((h, i) => !(i === 0 && h.trim() === title.trim()));
  return [title, ...headings].join(" ");
}
