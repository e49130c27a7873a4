import assert from "node:assert/strict";
import type { Db } from "../src/db/db.ts";
import { writePage } from "../src/pages/write_page.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { DATABASE_URL, freshDb, testDeps } from "./helpers.ts";

const BY = { source: "test" };

// `freshDb()` hands a test a database another test of the same process may have used before
// (emptied: making one costs seconds on PGlite, a second on PostgreSQL). What a test sees must
// be what a new database would show.

async function writeA(db: Db): Promise<void> {
  await writePage(testDeps(db), { wikiId: "notes", path: "A", markdown: "# A\nx" }, BY);
}

async function pageId(db: Db): Promise<number> {
  return (await db<{ id: number }>`SELECT id FROM pages WHERE path = 'A'`)[0]!.id;
}

async function writeOne(): Promise<{ url?: string; id: number }> {
  await using db = await freshDb();
  await createWiki(db, { id: "notes", title: "Notes", visibility: "private" });
  await writeA(db);
  return { url: db.url, id: await pageId(db) };
}

Deno.test("a test's database is empty and its ids start over, though a test used it before", async () => {
  const first = await writeOne();
  await using db = await freshDb();
  for (const table of ["wikis", "pages", "page_revisions", "chunks"]) {
    const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
    assert.equal(row!.n, 0, `${table} is empty`);
  }
  const [migrated] = await db<{ n: number }>`SELECT count(*)::int AS n FROM schema_migrations`;
  assert.ok(migrated!.n > 0, "still migrated");
  await createWiki(db, { id: "notes", title: "Notes", visibility: "private" });
  await writeA(db);
  assert.equal(await pageId(db), first.id, "identities restart");
  // On PostgreSQL it is the same database, emptied, not a new copy of the template.
  if (DATABASE_URL) assert.equal(db.url, first.url);
});

Deno.test("a database whose schema a test changed is not handed to another test", async () => {
  let url: string | undefined;
  {
    await using db = await freshDb();
    url = db.url;
    // Neither changes a table's columns or adds a relation: the print must see them anyway.
    await db.exec(`CREATE FUNCTION left_behind() RETURNS trigger LANGUAGE plpgsql AS
      'BEGIN RAISE EXCEPTION ''left behind''; END'`);
    await db.exec(`CREATE TRIGGER left_behind BEFORE INSERT ON wikis
      FOR EACH ROW EXECUTE FUNCTION left_behind()`);
  }
  await using db = await freshDb();
  const [fn] = await db<{ n: number }>`
    SELECT count(*)::int AS n FROM pg_proc WHERE proname = 'left_behind'`;
  assert.equal(fn!.n, 0);
  const [trigger] = await db<{ n: number }>`
    SELECT count(*)::int AS n FROM pg_trigger WHERE tgname = 'left_behind'`;
  assert.equal(trigger!.n, 0);
  await createWiki(db, { id: "notes", title: "Notes", visibility: "private" });
  if (DATABASE_URL) assert.notEqual(db.url, url);
});

Deno.test({
  name: "on PostgreSQL, a table a test analyzed has unknown row counts for the next test",
  ignore: !DATABASE_URL,
  async fn() {
    {
      await using db = await freshDb();
      await createWiki(db, { id: "notes", title: "Notes", visibility: "private" });
      await writeA(db);
      // As autovacuum does after a test's bulk writes: the planner's counts are now the test's.
      await db.exec("ANALYZE chunks; ANALYZE wikis");
    }
    await using db = await freshDb();
    const counted = await db<{ relname: string }>`
      SELECT relname FROM pg_class
      WHERE relnamespace = 'public'::regnamespace AND relkind = 'r'
        AND relname <> 'schema_migrations' AND reltuples >= 0`;
    // Planned with the test before's counts, a search over thousands of fresh rows took minutes.
    assert.deepEqual(counted.map((r) => r.relname), []);
    await createWiki(db, { id: "notes", title: "Notes", visibility: "private" });
    await writeA(db);
    assert.equal(await pageId(db), 1, "identities restart after a truncation too");
  },
});

Deno.test("the next test's statements check foreign keys: emptying a database changes no setting of its pool", async () => {
  await writeOne();
  await using db = await freshDb();
  const settings = await Promise.all(
    Array.from(
      { length: 4 },
      () => db<{ role: string }>`SELECT current_setting('session_replication_role') AS role`,
    ),
  );
  assert.deepEqual(settings.map((r) => r[0]!.role), ["origin", "origin", "origin", "origin"]);
  await assert.rejects(
    db`INSERT INTO pages (wiki_id, path, title, markdown) VALUES ('nowhere', 'A', 'A', '# A')`,
  );
});
