import { sha256Hex } from "../lib/sha256.ts";
import type { Db } from "./db.ts";

/** Any number fits; it only has to be the same in every process of the service. */
const MIGRATION_LOCK = 727_001;

const defaultDir = new URL("../../migrations/", import.meta.url);

/** A migration file: `0001_init.sql` has version 1. */
export type Migration = { version: number; name: string; sql: string };

/** Thrown when an applied migration's file no longer matches what was applied: start-up stops. */
export class MigrationError extends Error {
  override name = "MigrationError";
}

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
 * Applies the migrations the database has not recorded, each in its own transaction, and
 * records each with the SHA-256 of its file. Every step takes a transaction-scoped advisory
 * lock first, so a second process starting against the same PostgreSQL waits, then sees the
 * migration recorded and skips it. An applied migration whose file has changed since throws
 * a `MigrationError` naming the file: migrations are forward-only, so the change belongs in a
 * new one. Rows recorded before checksums existed get theirs on the first run.
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
    );
    ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS checksum text`);
  });
  for (const migration of all) {
    // Line endings do not count: a checkout with CRLF endings is the same migration.
    const checksum = await sha256Hex(migration.sql.replace(/\r\n/g, "\n"));
    await db.transaction(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
      const [done] = await tx<{ checksum: string | null }>`
        SELECT checksum FROM schema_migrations WHERE version = ${migration.version}`;
      if (done?.checksum === null) {
        await tx`UPDATE schema_migrations SET checksum = ${checksum}
          WHERE version = ${migration.version}`;
        return;
      }
      if (done) {
        if (done.checksum === checksum) return;
        throw new MigrationError(
          `Migration "${migration.name}" was edited after it was applied to this database ` +
            `(checksum ${done.checksum.slice(0, 12)}…, file now ${checksum.slice(0, 12)}…): ` +
            `restore the file and put the change in a new migration`,
        );
      }
      await tx.exec(migration.sql);
      await tx`INSERT INTO schema_migrations (version, name, checksum)
        VALUES (${migration.version}, ${migration.name}, ${checksum})`;
      applied.push(migration.name);
    });
  }
  return applied;
}
