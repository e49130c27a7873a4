import assert from "node:assert/strict";
import { loadConfig } from "../src/config/config.ts";
import { migrate, readMigrations } from "../src/db/migrate.ts";
import { openDb } from "../src/db/open_db.ts";
import { openPglite } from "../src/db/pglite.ts";
import { openPostgres } from "../src/db/postgres.ts";
import { resolvePageRef } from "../src/pages/read_page.ts";
import { writePage } from "../src/pages/write_page.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { seedDocs } from "../src/wikis/seed_docs.ts";
import { selectMissingTargets } from "../src/pages/store.ts";
import { DATABASE_URL, freshDb, testDeps } from "./helpers.ts";

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
  const first = await seedDocs(testDeps(db));
  assert.ok(first.added >= 5, `expected the guide's pages, got ${first.added}`);
  assert.deepEqual(first.failed, []);
  const wiki = await db<{ visibility: string }>`SELECT visibility FROM wikis WHERE id = 'docs'`;
  assert.equal(wiki[0]!.visibility, "public");
  assert.deepEqual(await selectMissingTargets(db, "docs", 10), []);
  const again = await seedDocs(testDeps(db));
  assert.deepEqual(again, { added: 0, updated: 0, unchanged: first.added, deleted: 0, failed: [] });
});

// The two embedded-store tests open PGlite on a folder of their own whatever DATABASE_URL says, so
// a run on PostgreSQL would repeat them unchanged: they run on the PGlite run only (CI runs both).
Deno.test({
  name: "the embedded store keeps its data across a restart, and refuses a second process",
  ignore: Boolean(DATABASE_URL),
}, async () => {
  const dataDir = await Deno.makeTempDir();
  const first = await openPglite(dataDir);
  await migrate(first);
  await createWiki(first, { id: "kept", visibility: "public" });
  await writePage(testDeps(first), { wikiId: "kept", path: "Page", markdown: "# Still here" }, {
    source: "t",
  });
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `import { openPglite } from "${new URL("../src/db/pglite.ts", import.meta.url)}";
      try { await openPglite(${JSON.stringify(dataDir)}); Deno.exit(0); }
      catch (e) { console.error(e.message); Deno.exit(3); }`,
    ],
    stderr: "piped",
  });
  const out = await child.output();
  assert.equal(out.code, 3);
  assert.match(new TextDecoder().decode(out.stderr), /in use by another process/);
  await first.close();
  const second = await openPglite(dataDir);
  try {
    assert.deepEqual(await migrate(second), []);
    assert.equal((await resolvePageRef(second, "kept", "page")).title, "Still here");
  } finally {
    await second.close();
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test({
  name: "the embedded store starts with PGLITE_SHARED_BUFFERS_MB of page cache, 32 MB by default",
  ignore: Boolean(DATABASE_URL),
}, async () => {
  const dataDir = await Deno.makeTempDir();
  const sharedBuffers = async (env: Record<string, string>) => {
    const db = await openDb(loadConfig({ ...env, DATA_DIR: dataDir }));
    try {
      assert.equal(db.kind, "pglite");
      const [row] = await db<{ shared_buffers: string }>`SHOW shared_buffers`;
      return row!.shared_buffers;
    } finally {
      await db.close();
    }
  };
  try {
    assert.equal(await sharedBuffers({}), "32MB");
    // The postgresql.conf of the data directory still says 128MB: the start option wins.
    assert.match(
      await Deno.readTextFile(`${dataDir}/pglite/postgresql.conf`),
      /shared_buffers = 128MB/,
    );
    assert.equal(await sharedBuffers({ PGLITE_SHARED_BUFFERS_MB: "48" }), "48MB");
    assert.throws(() => loadConfig({ PGLITE_SHARED_BUFFERS_MB: "0" }), /PGLITE_SHARED_BUFFERS_MB/);
    assert.throws(
      () => loadConfig({ PGLITE_SHARED_BUFFERS_MB: "2048" }),
      /PGLITE_SHARED_BUFFERS_MB/,
    );
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
