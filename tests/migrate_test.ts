import assert from "node:assert/strict";
import { migrate, MigrationError, readMigrations } from "../src/db/migrate.ts";
import { sha256Hex } from "../src/lib/sha256.ts";
import { freshDb } from "./helpers.ts";

Deno.test("an applied migration edited afterwards stops start-up with a message naming its file", async () => {
  await using db = await freshDb({ migrate: false });
  const all = await readMigrations();
  await migrate(db, all);
  const edited = all.map((m) => m.version === 3 ? { ...m, sql: `${m.sql}\n-- tweaked` } : m);
  await assert.rejects(
    migrate(db, edited),
    (e: Error) =>
      e instanceof MigrationError && /Migration "0003_tokens\.sql" was edited/.test(e.message) &&
      /new migration/.test(e.message),
  );
  // The same files with CRLF line endings (a Windows checkout) are not an edit.
  const crlf = all.map((m) => ({ ...m, sql: m.sql.replace(/\n/g, "\r\n") }));
  assert.deepEqual(await migrate(db, crlf), []);
});

Deno.test("a database recorded before checksums gets them on first run, then edits are caught", async () => {
  await using db = await freshDb({ migrate: false });
  const all = await readMigrations();
  const old = all.filter((m) => m.version <= 5);
  // What the runner without checksums left behind: the table without the column.
  await db.exec(`CREATE TABLE schema_migrations (
    version integer PRIMARY KEY,
    name text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  for (const m of old) {
    await db.exec(m.sql);
    await db`INSERT INTO schema_migrations (version, name) VALUES (${m.version}, ${m.name})`;
  }
  const applied = await migrate(db, all);
  assert.deepEqual(applied, all.filter((m) => m.version > 5).map((m) => m.name));
  const rows = await db<{ version: number; checksum: string | null }>`
    SELECT version, checksum FROM schema_migrations ORDER BY version`;
  assert.equal(rows.length, all.length);
  for (const [i, row] of rows.entries()) {
    assert.equal(row.checksum, await sha256Hex(all[i]!.sql), `checksum of ${all[i]!.name}`);
  }
  const edited = all.map((m) => m.version === 1 ? { ...m, sql: `${m.sql} ` } : m);
  await assert.rejects(migrate(db, edited), /Migration "0001_init\.sql" was edited/);
});
