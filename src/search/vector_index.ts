import type { Db } from "../db/db.ts";
import type { Embedder } from "../lib/embedder.ts";
import { storesVectors } from "./fusion.ts";

const INDEX_LOCK = 727_002;

/** The name of the HNSW index that serves an embedder's vectors. */
export function vectorIndexName(embedder: Embedder): string {
  let h = 0;
  for (const ch of embedder.id) h = (Math.imul(h, 31) + ch.charCodeAt(0)) >>> 0;
  return `chunks_hnsw_${embedder.dimensions}_${h.toString(36)}`;
}

/**
 * Records the embedder with its size and makes sure its HNSW index exists: a partial index
 * over `embedding::vector(d)` for the rows that embedder wrote, so models of different sizes
 * can live side by side while a re-index runs. Serialised across processes. An embedder whose
 * vectors are not stored (`storesVectors`) has no index.
 */
export async function ensureVectorIndex(db: Db, embedder: Embedder): Promise<void> {
  if (!storesVectors(embedder)) return;
  const name = vectorIndexName(embedder);
  const d = embedder.dimensions;
  if (!Number.isInteger(d) || d < 1 || d > 2000) {
    throw new Error(`Cannot index ${d}-dimensional vectors`);
  }
  await db.transaction(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${INDEX_LOCK})`;
    await tx`
      INSERT INTO vector_indexes (embedder, dimensions, index_name)
      VALUES (${embedder.id}, ${d}, ${name})
      ON CONFLICT (embedder) DO NOTHING`;
    const literal = `'${embedder.id.replace(/'/g, "''")}'`;
    await tx.exec(
      `CREATE INDEX IF NOT EXISTS ${name} ON chunks
       USING hnsw ((embedding::vector(${d})) vector_cosine_ops) WHERE embedder = ${literal}`,
    );
  });
}

/**
 * How many chunks the embedder has not embedded (they need `deno task reindex`): none for an
 * embedder whose vectors are not stored.
 */
export async function countStaleChunks(
  db: Db,
  embedder: Embedder,
  wikiId?: string,
): Promise<number> {
  if (!storesVectors(embedder)) return 0;
  const rows = await db<{ n: number }>`
    SELECT count(*)::int AS n FROM chunks
    WHERE embedder IS DISTINCT FROM ${embedder.id} AND (${
    wikiId ?? null
  }::text IS NULL OR wiki_id = ${wikiId ?? null})`;
  return rows[0]!.n;
}
