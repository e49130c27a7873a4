import type { Db } from "./db.ts";

/** Any number fits; it only has to be the same in every process of the service. */
const MIGRATION_LOCK = 727_001;

const defaultDir = new URL("../../migrations/", import.meta.url);

/** A migration file: `0001_init.sql` has version 1. */
export type Migration = { version: number; name: string; sql: string };

/** Reads the numbered `.sql` files of `dir`, in order. */
export async function readMigrations(dir: URL = defaultDir): Promise<Migration[]> {
  const migrations: Migration[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const match = /^(\d{4})_([\w-]+)\.sql$/.exec(entry.name);
    if (!entry.isFile || !match) continue;
    const sql = await Deno.readTextFile(new URL(entry.name, dir));
    migrations.push({ version: Number(match[1]), name: entry.name, sql });
  }
  migrations.sort((a, b) => a.version - b.version);
  // Numbers only rise; a gap is allowed, since parallel branches reserve numbers ahead.
  migrations.forEach((m, i) => {
    if (i > 0 && m.version <= migrations[i - 1]!.version) {
      throw new Error(`Migration "${m.name}" breaks the numbering`);
    }
  });
  return migrations;
}

/**
 * Applies the migrations the database has not recorded, each in its own transaction.
 * Every step takes a transaction-scoped advisory lock first, so a second process starting
 * against the same PostgreSQL waits, then sees the migration recorded and skips it.
 * Returns the names of the migrations this call applied.
 */
export async function migrate(db: Db, migrations?: Migration[]): Promise<string[]> {
  const all = migrations ?? await readMigrations();
  const applied: string[] = [];
  await db.transaction(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
  });
  for (const migration of all) {
    await db.transaction(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
      const done = await tx`SELECT 1 FROM schema_migrations WHERE version = ${migration.version}`;
      if (done.length > 0) return;
      await tx.exec(migration.sql);
      await tx`INSERT INTO schema_migrations (version, name)
        VALUES (${migration.version}, ${migration.name})`;
      applied.push(migration.name);
    });
  }
  return applied;
}
