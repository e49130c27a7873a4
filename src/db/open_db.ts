import type { Config } from "../config/config.ts";
import type { Db } from "./db.ts";
import { openPglite } from "./pglite.ts";
import { openPostgres } from "./postgres.ts";

/** Opens PostgreSQL when `DATABASE_URL` is set, else the embedded PGlite store in `DATA_DIR`. */
export function openDb(
  config: Pick<
    Config,
    "databaseUrl" | "databasePoolSize" | "databasePreparedStatements" | "dataDir"
  >,
): Promise<Db> {
  if (config.databaseUrl) {
    return Promise.resolve(openPostgres(config.databaseUrl, {
      max: config.databasePoolSize,
      prepare: config.databasePreparedStatements,
    }));
  }
  return openPglite(config.dataDir);
}
