import type { Config } from "../config/config.ts";
import type { Db } from "./db.ts";

/**
 * Opens PostgreSQL when `DATABASE_URL` is set, else the embedded PGlite store in `DATA_DIR`.
 * Only the chosen store's client library is loaded.
 */
export async function openDb(
  config: Pick<
    Config,
    | "databaseUrl"
    | "databasePoolSize"
    | "databasePreparedStatements"
    | "dataDir"
    | "pgliteSharedBuffersMb"
  >,
): Promise<Db> {
  if (config.databaseUrl) {
    const { openPostgres } = await import("./postgres.ts");
    return openPostgres(config.databaseUrl, {
      max: config.databasePoolSize,
      prepare: config.databasePreparedStatements,
    });
  }
  const { openPglite } = await import("./pglite.ts");
  return openPglite(config.dataDir, config.pgliteSharedBuffersMb);
}
