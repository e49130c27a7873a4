import { createApp } from "./app.ts";
import { type Config, loadConfig } from "./config/config.ts";
import type { Db } from "./db/db.ts";
import { migrate } from "./db/migrate.ts";
import { openDb } from "./db/open_db.ts";
import type { Deps } from "./deps.ts";
import { createLog, type Log } from "./lib/log.ts";
import { seedDocs } from "./wikis/seed_docs.ts";

/** Opens the store and brings its schema up to date. */
export async function openStore(config: Config, log: Log): Promise<Db> {
  const db = await openDb(config);
  const applied = await migrate(db);
  if (applied.length > 0) log.info("migrations applied", { migrations: applied });
  return db;
}

/** Everything `deno task start` does: configure, open, migrate, seed, serve. */
export async function startServer(
  env: Record<string, string | undefined>,
): Promise<Deno.HttpServer> {
  const config = loadConfig(env);
  const log = createLog(config.logLevel);
  const db = await openStore(config, log);
  if (config.seedDocs) {
    const seeded = await seedDocs(db);
    if (seeded.added + seeded.updated + seeded.deleted > 0 || seeded.failed.length > 0) {
      log.info("docs wiki refreshed", { ...seeded });
    }
  }
  const deps: Deps = { config, db, log };
  const app = createApp(deps);
  const server = Deno.serve({
    port: config.port,
    onListen: ({ hostname, port }) =>
      log.info("listening", {
        address: `http://${hostname}:${port}`,
        base_url: config.baseUrl,
        store: db.kind,
      }),
  }, app.fetch);
  const stop = async () => {
    log.info("shutting down: draining requests");
    await server.shutdown();
    await db.close();
  };
  Deno.addSignalListener("SIGTERM", stop);
  Deno.addSignalListener("SIGINT", stop);
  server.finished.then(() => Deno.exit(0));
  return server;
}
