import type { Config } from "../config/config.ts";
import type { Log } from "../lib/log.ts";
import type { Db } from "./db.ts";
import type { Replicas } from "./replicas.ts";

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

/**
 * The read replicas of `DATABASE_REPLICA_URLS` over `primary`, or undefined when there are none.
 * Each gets a pool as large as the primary's.
 */
export async function openReplicas(
  config: Pick<
    Config,
    "databaseReplicaUrls" | "databasePoolSize" | "databasePreparedStatements"
  >,
  primary: Db,
  log: Log,
): Promise<Replicas | undefined> {
  if (config.databaseReplicaUrls.length === 0) return undefined;
  const { openPostgres } = await import("./postgres.ts");
  const { replicaSet } = await import("./replicas.ts");
  const replicas = config.databaseReplicaUrls.map((url) =>
    openPostgres(url, {
      max: config.databasePoolSize,
      prepare: config.databasePreparedStatements,
    })
  );
  return replicaSet(primary, replicas, log);
}
