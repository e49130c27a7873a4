import type { Db } from "../../src/db/db.ts";

/**
 * Runs `fn` with the postings table's primary key and foreign key dropped, then adds them
 * back exactly as the catalog described them: a bulk load of millions of postings then
 * builds that index once, by sorting, instead of inserting into it row by row, and the
 * foreign key is validated once. The table ends as the migrations made it.
 */
export async function withoutPostingKeys<T>(
  db: Db,
  memory: string,
  fn: () => Promise<T>,
): Promise<T> {
  const constraints = await db<{ name: string; def: string }>`
    SELECT conname AS name, pg_get_constraintdef(oid) AS def
    FROM pg_constraint WHERE conrelid = 'chunk_terms'::regclass AND contype IN ('p', 'f')
    ORDER BY contype = 'f'`;
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
  await db.exec(
    [...constraints].reverse()
      .map((c) => `ALTER TABLE chunk_terms DROP CONSTRAINT ${quote(c.name)};`).join("\n"),
  );
  const result = await fn();
  await db.transaction(async (tx) => {
    await tx`SELECT set_config('maintenance_work_mem', ${memory}, true)`;
    for (const c of constraints) {
      await tx.exec(`ALTER TABLE chunk_terms ADD CONSTRAINT ${quote(c.name)} ${c.def}`);
    }
  });
  return result;
}

/**
 * Recomputes the postings of the wiki's last `sample` chunks from their text, as
 * `indexChunkTerms` would, and counts the rows that differ from the stored ones (0 when the
 * copies' postings are what an import computes).
 */
export async function countPostingMismatches(
  db: Db,
  wikiId: string,
  sample: number,
): Promise<number> {
  const [row] = await db<{ n: number }>`
    WITH c AS (
      SELECT id, heading_text, text FROM chunks WHERE wiki_id = ${wikiId} ORDER BY id DESC
      LIMIT ${sample}
    ), expected AS (
      SELECT c.id, u.lexeme AS term, sum(u.h)::int AS h, sum(u.b)::int AS b
      FROM c CROSS JOIN LATERAL (
        SELECT lexeme, cardinality(positions) AS h, 0 AS b
        FROM unnest(to_tsvector('english', c.heading_text))
        UNION ALL
        SELECT lexeme, 0, cardinality(positions) FROM unnest(to_tsvector('english', c.text))
      ) u
      GROUP BY c.id, u.lexeme
    ), actual AS (
      SELECT chunk_id AS id, term, tf_heading::int AS h, tf_body::int AS b FROM chunk_terms
      WHERE chunk_id IN (SELECT id FROM c)
    )
    SELECT count(*)::int AS n FROM (
      (TABLE expected EXCEPT TABLE actual) UNION ALL (TABLE actual EXCEPT TABLE expected)
    ) d`;
  return row!.n;
}
