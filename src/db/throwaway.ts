import type { Config } from "../config/config.ts";
import type { Db } from "./db.ts";
import { migrate } from "./migrate.ts";
import { openPglite } from "./pglite.ts";
import { openPostgres } from "./postgres.ts";

/**
 * A fresh, migrated store for evaluations and benchmarks: in-memory PGlite, or a new database
 * on `DATABASE_URL`'s server. `drop` closes it and deletes that database.
 */
export async function openThrowawayStore(
  config: Pick<Config, "databaseUrl">,
): Promise<{ db: Db; drop: () => Promise<void> }> {
  if (!config.databaseUrl) {
    const db = await openPglite(undefined);
    await migrate(db);
    return { db, drop: () => db.close() };
  }
  const name = `wiki_tmp_${crypto.randomUUID().replace(/-/g, "").slice(0, 12)}`;
  const admin = openPostgres(config.databaseUrl, { max: 1 });
  await admin.exec(`CREATE DATABASE ${name}`);
  const url = new URL(config.databaseUrl);
  url.pathname = `/${name}`;
  const db = openPostgres(url.toString());
  await migrate(db);
  return {
    db,
    drop: async () => {
      await db.close();
      await admin.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.close();
    },
  };
}
