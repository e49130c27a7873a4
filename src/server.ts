import { createApp } from "./app.ts";
import { type Config, loadConfig } from "./config/config.ts";
import { migrate } from "./db/migrate.ts";
import { openDb, openReplicas } from "./db/open_db.ts";
import type { Deps } from "./deps.ts";
import { createLog, type Log } from "./lib/log.ts";
import { createEmbedder } from "./search/create_embedder.ts";
import { countStaleChunks, ensureVectorIndex } from "./search/vector_index.ts";
import { keepRenderWorker } from "./spaces/render_threads.ts";
import { startSyncScheduler } from "./sync/sync_scheduler.ts";
import { seedDocs } from "./wikis/seed_docs.ts";
import { englishWords } from "./text/english_words.ts";

/**
 * Opens the store, brings its schema up to date, and sets up the configured embedder and its
 * vector index. Used by the server and by every command (import, reindex, eval).
 */
export async function openDeps(config: Config, log: Log): Promise<Deps> {
  const db = await openDb(config);
  try {
    const applied = await migrate(db);
    if (applied.length > 0) log.info("migrations applied", { migrations: applied });
    const embedder = await createEmbedder(config.embedding);
    await ensureVectorIndex(db, embedder);
    const stale = await countStaleChunks(db, embedder);
    if (stale > 0) {
      log.warn("chunks lack vectors of the configured embedder: run `deno task reindex`", {
        chunks: stale,
        embedder: embedder.id,
      });
    }
    const replicas = await openReplicas(config, db, log);
    return replicas ? { config, db, log, embedder, replicas } : { config, db, log, embedder };
  } catch (error) {
    await db.close();
    throw error;
  }
}

/** The port asked for is taken: says which, and how to choose another. */
export class PortInUseError extends Error {
  override name = "PortInUseError";
  constructor(host: string, port: number) {
    super(
      `Port ${port} is already in use on ${host}: another program (or another copy of this ` +
        `server) is listening there. Stop it, or choose another port with the PORT ` +
        `environment variable, e.g. PORT=${port === 65535 ? 8001 : port + 1} deno task start ` +
        "(set BASE_URL to match if you set it)",
    );
  }
}

/** Everything `deno task start` does: configure, open, migrate, seed, serve. */
export async function startServer(
  env: Record<string, string | undefined>,
): Promise<Deno.HttpServer> {
  const config = loadConfig(env);
  const log = createLog(config.logLevel);
  const deps = await openDeps(config, log);
  if (config.seedDocs) {
    const seeded = await seedDocs(deps);
    if (seeded.added + seeded.updated + seeded.deleted > 0 || seeded.failed.length > 0) {
      log.info("docs wiki refreshed", { ...seeded });
    }
  }
  const app = createApp(deps);
  keepRenderWorker().then(
    (started) => {
      if (!started) log.warn("no render worker: large pages render in the server's thread");
    },
    (error) => log.warn("render worker failed to start", { error: String(error) }),
  );
  // English's words (`ask`'s absent names, ~80 ms and 6 MB) are read now, not on the first
  // documentation answer a user waits for.
  englishWords().catch((error) =>
    log.warn("word list not loaded: read on the first answer", { error: String(error) })
  );
  const scheduler = config.sync.scheduler ? startSyncScheduler(deps) : null;
  let server: Deno.HttpServer;
  try {
    server = Deno.serve({
      port: config.port,
      hostname: config.host,
      onListen: ({ hostname, port }) => {
        log.info("listening", {
          address: `http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}`,
          host: config.host,
          base_url: config.baseUrl,
          store: deps.db.kind,
          embedder: deps.embedder.id,
        });
        // One plain line for the person who started it; the log above is for machines.
        console.log(`The wiki is running: open ${config.baseUrl}/ in a browser`);
      },
    }, app.fetch);
  } catch (error) {
    await scheduler?.stop();
    await deps.db.close();
    if (error instanceof Deno.errors.AddrInUse) throw new PortInUseError(config.host, config.port);
    throw error;
  }
  // Graceful stop: no new connections, in-flight requests finish (each within the request
  // timeout), then the store closes (PGlite checkpoints) before the process exits. Exiting as
  // soon as the server finished would race the close. A second signal exits at once.
  let stopping = false;
  const stop = async () => {
    if (stopping) Deno.exit(1);
    stopping = true;
    log.info("shutting down: draining requests");
    try {
      await server.shutdown();
      await scheduler?.stop();
      await deps.replicas?.close();
      await deps.db.close();
    } catch (error) {
      log.error("unclean shutdown", { error: String(error) });
      Deno.exit(1);
    }
    log.info("stopped");
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGTERM", stop);
  Deno.addSignalListener("SIGINT", stop);
  return server;
}
