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
  const admin = openPostgres(config.databaseUrl, { max: 1 });
  await sweepLeftovers(admin, "wiki_tmp_");
  const name = throwawayName("wiki_tmp_");
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

/**
 * A name for a database this process makes and means to drop: `<prefix>p<pid>_<random>`. The
 * pid lets a later run tell a database whose maker is gone (killed, or failed before its drop)
 * from one in use, so `sweepLeftovers` can drop it.
 */
export function throwawayName(prefix: string): string {
  return `${prefix}p${Deno.pid}_${crypto.randomUUID().replace(/-/g, "").slice(0, 12)}`;
}

/**
 * Drops the databases named by `throwawayName(prefix)` whose process is gone on this machine
 * (no `/proc/<pid>`). Left over, they pile up: a PostgreSQL cluster with hundreds of them took
 * over a minute to start after an unclean stop (its recovery syncs every file). Without `/proc`
 * (not Linux) nothing is dropped; without FORCE, a database someone is connected to stays.
 */
export async function sweepLeftovers(admin: Db, prefix: string): Promise<void> {
  try {
    await Deno.stat("/proc/self");
  } catch {
    return;
  }
  const rows = await admin.query<{ datname: string }>(
    "SELECT datname FROM pg_database WHERE starts_with(datname, $1)",
    [`${prefix}p`],
  );
  const pidOf = new RegExp(`^${prefix}p(\\d+)_`);
  for (const { datname } of rows) {
    const pid = pidOf.exec(datname)?.[1];
    if (!pid || Number(pid) === Deno.pid || await exists(`/proc/${pid}`)) continue;
    await admin.exec(`DROP DATABASE IF EXISTS ${datname}`).catch(() => {});
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}
