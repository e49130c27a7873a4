import type { Hono } from "hono";
import { createApp } from "../src/app.ts";
import { type Config, loadConfig } from "../src/config/config.ts";
import type { Db } from "../src/db/db.ts";
import { migrate } from "../src/db/migrate.ts";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { wrapPglite } from "../src/db/pglite.ts";
import { openPostgres } from "../src/db/postgres.ts";
import type { Deps } from "../src/deps.ts";
import { createLog } from "../src/lib/log.ts";
import { createOfflineEmbedder } from "../src/search/offline_embedder.ts";
import { checkRestResponses } from "./openapi_check.ts";

/** The PostgreSQL server the suite runs against, when `DATABASE_URL` is set. */
export const DATABASE_URL = Deno.env.get("DATABASE_URL") || undefined;

/** A fresh, migrated database of its own: a new PostgreSQL database, or in-memory PGlite. */
export type TestDb = Db & { [Symbol.asyncDispose](): Promise<void>; url?: string };

/** One migrated in-memory PGlite per test process; each test gets a clone of it. */
let template: Promise<PGlite> | undefined;

/** Opens a fresh database for one test; `await using db = await freshDb()` drops it after. */
export async function freshDb(options: { migrate?: boolean } = {}): Promise<TestDb> {
  const migrated = options.migrate ?? true;
  let db: Db;
  let drop = async () => {};
  let url: string | undefined;
  if (DATABASE_URL) {
    const name = `wiki_t_${crypto.randomUUID().replace(/-/g, "").slice(0, 16)}`;
    const admin = openPostgres(DATABASE_URL, { max: 1 });
    await admin.exec(`CREATE DATABASE ${name}`);
    const u = new URL(DATABASE_URL);
    u.pathname = `/${name}`;
    url = u.toString();
    db = openPostgres(url, { max: 4 });
    drop = async () => {
      await admin.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.close();
    };
    if (migrated) await migrate(db);
  } else if (!migrated) {
    db = wrapPglite(await PGlite.create({ extensions: { vector } }));
  } else {
    template ??= (async () => {
      const pg = await PGlite.create({ extensions: { vector } });
      await migrate(wrapPglite(pg));
      return pg;
    })();
    db = wrapPglite(await (await template).clone() as PGlite);
  }
  const close = db.close;
  return Object.assign(db, {
    url,
    async [Symbol.asyncDispose]() {
      await close();
      await drop();
    },
  });
}

/** A configuration for tests: the given overrides over the defaults. */
export function testConfig(env: Record<string, string> = {}): Config {
  // Tests sign many people up from one address; tests of the sign-up limit set their own.
  return loadConfig({ BASE_URL: "http://wiki.test", RATE_LIMIT_SIGNUPS_PER_HOUR: "1000", ...env });
}

/** Dependencies over a fresh database, with a log that keeps its lines for assertions. */
export function testDeps(db: Db, env: Record<string, string> = {}): Deps & { logLines: string[] } {
  const logLines: string[] = [];
  const config = testConfig(env);
  const log = createLog("debug", (l) => logLines.push(l));
  return {
    config,
    db,
    log,
    logLines,
    embedder: createOfflineEmbedder(config.embedding.dimensions),
  };
}

/**
 * The whole app over a fresh database. Every `/api/v1` response it gives through
 * `app.request` is checked against the app's OpenAPI document (`tests/openapi_check.ts`).
 */
export function testApp(
  db: Db,
  env: Record<string, string> = {},
): { app: Hono; deps: Deps & { logLines: string[] } } {
  const deps = testDeps(db, env);
  const documentApp = () => createApp(testDeps(NO_DATABASE, env));
  return { app: checkRestResponses(createApp(deps), documentApp), deps };
}

/** A database that is never there: the app serves its OpenAPI document without one. */
const NO_DATABASE = Object.assign(
  () => Promise.reject(new Error("no database: the document is built without one")),
  {
    kind: "pglite",
    query: () => Promise.reject(new Error("no database")),
    exec: () => Promise.reject(new Error("no database")),
    transaction: () => Promise.reject(new Error("no database")),
    close: () => Promise.resolve(),
  },
) as unknown as Db;
