import type { Config } from "./config/config.ts";
import type { Db } from "./db/db.ts";
import type { Replicas } from "./db/replicas.ts";
import type { Log } from "./lib/log.ts";
import type { Embedder } from "./lib/embedder.ts";

/**
 * What request handlers and feature functions are given: built once in `startServer`.
 * `replicas`: read replicas, when configured; `reads`: one request's handle for reads that
 * tolerate lag (`readingDeps` sets it, `forReads` uses it; absent, reads go to `db`).
 * `visibilitySeen`: one request's record of each wiki's visibility as a search's own statistics
 * statement read it on the primary (`lexicalTopK` fills it; the wiki endpoint admits a `search`
 * by it instead of a look-up of its own: src/access/early_admission.ts).
 */
export type Deps = {
  config: Config;
  db: Db;
  log: Log;
  embedder: Embedder;
  replicas?: Replicas;
  reads?: Db;
  visibilitySeen?: Map<string, string>;
};

/** What writing pages needs: the store, the embedder for new chunks, a log for its failures. */
export type WriteDeps = Pick<Deps, "db" | "embedder" | "log">;
