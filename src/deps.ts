import type { Config } from "./config/config.ts";
import type { Db } from "./db/db.ts";
import type { Log } from "./lib/log.ts";
import type { Embedder } from "./lib/embedder.ts";

/** What request handlers and feature functions are given: built once in `startServer`. */
export type Deps = { config: Config; db: Db; log: Log; embedder: Embedder };

/** What writing pages needs: the store, the embedder for new chunks, a log for its failures. */
export type WriteDeps = Pick<Deps, "db" | "embedder" | "log">;
