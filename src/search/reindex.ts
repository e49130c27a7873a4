import type { WriteDeps } from "../deps.ts";
import { selectStaleChunks, updateEmbeddings } from "./store.ts";
import { countStaleChunks } from "./vector_index.ts";

/** Chunks embedded per round trip. */
const BATCH = 128;

/**
 * Gives every chunk (of one wiki, or all) a vector from the configured embedder: after a
 * change of model, or for pages stored while the embedder was down. Chunks and the lexical
 * index are untouched; search keeps working throughout. Returns how many were embedded.
 */
export async function reindexVectors(
  deps: WriteDeps,
  wikiId: string | null,
  onProgress?: (done: number, total: number) => void,
): Promise<number> {
  const total = await countStaleChunks(deps.db, deps.embedder, wikiId ?? undefined);
  let done = 0;
  onProgress?.(0, total);
  while (done < total) {
    const batch = await selectStaleChunks(deps.db, deps.embedder.id, wikiId, BATCH);
    if (batch.length === 0) break;
    const vectors = await deps.embedder.embed(batch.map((c) => `${c.heading_text}\n\n${c.text}`));
    await updateEmbeddings(
      deps.db,
      deps.embedder.id,
      batch.map((c, i) => ({ id: c.id, embedding: vectors[i]! })),
    );
    done += batch.length;
    onProgress?.(Math.min(done, total), total);
  }
  return done;
}
