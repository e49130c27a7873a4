import type { Config } from "./config/config.ts";
import type { Db } from "./db/db.ts";
import type { Log } from "./lib/log.ts";

/** What request handlers and feature functions are given: built once in `startServer`. */
export type Deps = { config: Config; db: Db; log: Log };
