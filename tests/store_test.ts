import assert from "node:assert/strict";
import { migrate, readMigrations } from "../src/db/migrate.ts";
import { openPostgres } from "../src/db/postgres.ts";
import { seedDocs } from "../src/wikis/seed_docs.ts";
import { selectMissingTargets } from "../src/pages/store.ts";
import { freshDb } from "./helpers.ts";

Deno.test("migrations apply once, even when two processes start together", async () => {
  await using db = await freshDb({ migrate: false });
  // A second process is a second connection pool on PostgreSQL; PGlite has one process.
  const other = db.url ? openPostgres(db.url, { max: 2 }) : db;
  try {
    const [a, b] = await Promise.all([migrate(db), migrate(other)]);
    const all = (await readMigrations()).map((m) => m.name);
    assert.deepEqual([...a, ...b].sort(), all.sort());
    assert.deepEqual(await migrate(db), []);
    const rows = await db<{ n: number }>`SELECT count(*)::int AS n FROM schema_migrations`;
    assert.equal(rows[0]!.n, all.length);
  } finally {
    if (other !== db) await other.close();
  }
});

Deno.test("the user guide seeds the public docs wiki, every link resolving, idempotently", async () => {
  await using db = await freshDb();
  const first = await seedDocs(db);
  assert.ok(first.added >= 5, `expected the guide's pages, got ${first.added}`);
  assert.deepEqual(first.failed, []);
  const wiki = await db<{ visibility: string }>`SELECT visibility FROM wikis WHERE id = 'docs'`;
  assert.equal(wiki[0]!.visibility, "public");
  assert.deepEqual(await selectMissingTargets(db, "docs", 10), []);
  const again = await seedDocs(db);
  assert.deepEqual(again, { added: 0, updated: 0, unchanged: first.added, deleted: 0, failed: [] });
});
