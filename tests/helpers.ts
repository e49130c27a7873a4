import type { Hono } from "hono";
import { createApp } from "../src/app.ts";
import { type Config, loadConfig } from "../src/config/config.ts";
import { type Db, makeDb, type Row } from "../src/db/db.ts";
import { migrate, readMigrations } from "../src/db/migrate.ts";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { wrapPglite } from "../src/db/pglite.ts";
import { openPostgres } from "../src/db/postgres.ts";
import { sweepLeftovers, throwawayName } from "../src/db/throwaway.ts";
import type { Deps } from "../src/deps.ts";
import { createLog } from "../src/lib/log.ts";
import { sha256Hex } from "../src/lib/sha256.ts";
import { createOfflineEmbedder } from "../src/search/offline_embedder.ts";
import { checkRestResponses } from "./openapi_check.ts";

/** The PostgreSQL server the suite runs against, when `DATABASE_URL` is set. */
export const DATABASE_URL = Deno.env.get("DATABASE_URL") || undefined;

/** A fresh, migrated database of its own: a new PostgreSQL database, or in-memory PGlite. */
export type TestDb = Db & { [Symbol.asyncDispose](): Promise<void>; url?: string };

/** The migrated, empty PGlite store as a data-dir dump; each test loads its own copy. */
let template: Promise<Blob> | undefined;

/** Opens a fresh database for one test; `await using db = await freshDb()` drops it after. */
export async function freshDb(options: { migrate?: boolean } = {}): Promise<TestDb> {
  const migrated = options.migrate ?? true;
  let db: Db;
  let drop = async () => {};
  let url: string | undefined;
  if (DATABASE_URL && migrated) {
    const lease = await leasePostgres(DATABASE_URL);
    db = lease.db;
    url = lease.url;
    drop = lease.release;
  } else if (DATABASE_URL) {
    const name = throwawayName("wiki_t_");
    const admin = openPostgres(DATABASE_URL, { max: 1 });
    url = withDatabase(DATABASE_URL, name);
    await admin.exec(`CREATE DATABASE ${name}`);
    db = openPostgres(url, { max: 4 });
    drop = async () => {
      await admin.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.close();
    };
  } else if (!migrated) {
    db = wrapPglite(await PGlite.create({ extensions: { vector } }));
  } else {
    const lease = await leasePglite();
    db = lease.db;
    drop = lease.release;
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

/** Migrated PGlite instances a finished test gave back, emptied, for the next test of this file. */
const idle: PGlite[] = [];

/**
 * What the migrated store's schema looks like: its relations (tables, indexes, sequences), the
 * triggers and the functions. A store whose schema a test changed is not reused.
 */
const SCHEMA_PRINT = `SELECT md5(concat_ws('|',
  (SELECT string_agg(c.relname || ':' || c.relkind::text || ':' || c.relnatts::text, ','
     ORDER BY c.relname)
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public'),
  (SELECT string_agg(t.tgname, ',' ORDER BY t.tgname) FROM pg_trigger t WHERE NOT t.tgisinternal),
  (SELECT string_agg(p.proname, ',' ORDER BY p.proname)
     FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public')
  )) AS print`;
let schemaPrint: string | undefined;

/**
 * A migrated PGlite store for one test. Opening one costs seconds (its WebAssembly Postgres
 * starts and loads the template), so a test file opens few: when a test is done its instance is
 * emptied (every table but `schema_migrations` truncated, identities restarted, the session's
 * state discarded) and the next test of the file takes it. The test sees a `Db` of its own that
 * behaves as a closed store once closed ("PGlite is closed"), as a store of its own would.
 */
async function leasePglite(): Promise<{ db: Db; release(): Promise<void> }> {
  let pg = idle.pop();
  if (!pg) {
    template ??= templateDump();
    pg = await PGlite.create({ loadDataDir: await template, extensions: { vector } });
    schemaPrint ??= (await pg.query<{ print: string }>(SCHEMA_PRINT)).rows[0]!.print;
  }
  const inner = wrapPglite(pg);
  let closed = false;
  const refuse = () => Promise.reject(new Error("PGlite is closed"));
  const guard = <F extends (...args: never[]) => Promise<unknown>>(f: F) =>
    ((...args: Parameters<F>) => closed ? refuse() : f(...args)) as F;
  const db = guard(inner as unknown as (...args: never[]) => Promise<unknown>) as unknown as Db;
  Object.defineProperty(db, "kind", { value: "pglite" });
  db.query = guard(inner.query);
  db.exec = guard(inner.exec);
  db.transaction = guard(inner.transaction);
  let released: Promise<void> | undefined;
  const release = () => released ??= giveBack(pg);
  db.close = () => {
    closed = true;
    return release();
  };
  return { db, release };
}

/** The statements that empty a store: a test's rows are few, so DELETE beats TRUNCATE's new files. */
let emptying: Promise<string> | undefined;

async function emptyingScript(db: Db | PGlite): Promise<string> {
  const rows = async (sql: string) =>
    "kind" in db
      ? await db.query<{ name: string }>(sql)
      : (await db.query<{ name: string }>(sql)).rows;
  const names = (await rows(
    `SELECT quote_ident(tablename) AS name FROM pg_tables
      WHERE schemaname = 'public' AND tablename <> 'schema_migrations'`,
  )).map((r) => r.name);
  // On PostgreSQL, the tables that carry row counts of the planner's (`reltuples` ≥ 0: analyzed
  // or vacuumed since they were made or last truncated) are truncated first. Emptied by `DELETE`
  // alone they kept the counts of the test before until autovacuum came by, and the next test's
  // first searches were planned with them: the SQL leg's statement ran for minutes (a join planned
  // for a few rows over 27,000). A truncated table's counts are unknown, as a fresh database's are,
  // and are read from its size. Only those: truncating all 42 tables gives each new files and took
  // 60–240 ms a test, `DELETE` of a test's few rows ~2 ms. PGlite keeps `DELETE` (each store is
  // its own, and its tests write few rows).
  const truncateCounted = `DO $$ DECLARE t text; BEGIN
    SELECT string_agg(quote_ident(relname), ', ') INTO t FROM pg_class
      WHERE relnamespace = 'public'::regnamespace AND relkind = 'r'
        AND relname <> 'schema_migrations' AND reltuples >= 0;
    IF t IS NOT NULL THEN EXECUTE 'TRUNCATE ' || t || ' CASCADE'; END IF;
  END $$;`;
  const tables = [
    ...("kind" in db ? [truncateCounted] : []),
    ...names.map((name) => `DELETE FROM ${name};`),
  ];
  const sequences = (await rows(
    `SELECT quote_literal(quote_ident(sequencename)) AS name FROM pg_sequences
      WHERE schemaname = 'public'`,
  )).map((r) => `SELECT setval(${r.name}, 1, false);`);
  // Foreign keys are not checked while replicating: the tables empty in any order.
  return ["SET session_replication_role = replica;", ...tables, ...sequences].join("\n");
}

/** Empties an instance a test is done with and keeps it for the next test, or closes it. */
async function giveBack(pg: PGlite): Promise<void> {
  try {
    if (pg.closed) return;
    const print = (await pg.query<{ print: string }>(SCHEMA_PRINT)).rows[0]?.print;
    if (print !== schemaPrint || idle.length >= 2) return void await pg.close();
    emptying ??= emptyingScript(pg);
    await pg.exec(await emptying);
    await pg.exec("DISCARD ALL");
    idle.push(pg);
  } catch {
    await pg.close().catch(() => {});
  }
}

/** A PostgreSQL database's URL on the same server as `url`. */
function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * Test databases of this process are named `wiki_t_p<pid>_…`: those of a process that is gone
 * (killed before it could drop them) are dropped by the next run.
 */

/** Migrated PostgreSQL databases a finished test gave back, emptied, for the next test here. */
const idlePostgres: string[] = [];
/** The schema of the template: a database whose schema a test changed is dropped, not reused. */
let postgresPrint: string | undefined;
let postgresEmptying: Promise<string> | undefined;
/**
 * One connection per kept database that empties it between tests: opening a connection costs
 * 30–80 ms on this machine, and a test's database is emptied after each of ~600 tests.
 */
const emptiers = new Map<string, Db>();

/**
 * A migrated PostgreSQL database for one test. Copying the template (`CREATE DATABASE …
 * TEMPLATE`) and dropping the copy cost about a second between them, most of it the disk
 * writes and the checkpoint of the drop; emptying the tables a test wrote costs milliseconds.
 * So, as with PGlite above, a test's database is emptied when it is done (its sessions ended,
 * every table but `schema_migrations` emptied, sequences restarted) and the next test of this
 * process takes it. Each test gets a handle of its own on the database's pool (`leaseOf`), so
 * nothing cached per `Db` carries over.
 */
async function leasePostgres(
  serverUrl: string,
): Promise<{ db: Db; url: string; release(): Promise<void> }> {
  pgTemplate ??= postgresTemplate(serverUrl);
  const templateName = await pgTemplate;
  let name = idlePostgres.pop();
  if (!name) {
    name = throwawayName("wiki_t_");
    const admin = openPostgres(serverUrl, { max: 1 });
    try {
      await admin.exec(`CREATE DATABASE ${name} TEMPLATE ${templateName}`);
    } finally {
      await admin.close();
    }
  }
  const url = withDatabase(serverUrl, name);
  let pool = leasedPools.get(name);
  if (!pool) {
    const shared = new URL(url);
    shared.searchParams.set("application_name", LEASED);
    leasedPools.set(name, pool = openPostgres(shared.toString(), { max: 4 }));
  }
  const lease = leaseOf(pool);
  postgresPrint ??= (await lease.db.query<{ print: string }>(SCHEMA_PRINT))[0]!.print;
  let released: Promise<void> | undefined;
  return {
    db: lease.db,
    url,
    release: () => released ??= giveBackPostgres(serverUrl, name, lease.settled),
  };
}

/**
 * The application name of the pools the tests of a process share, a kept database's pool in
 * turn: a release ends every other connection to the database, not theirs. Opening a connection
 * costs 30–80 ms here (a backend's start: ~40 ms even over the Unix socket, `pgbench -C`), and a
 * test opened two or three.
 */
const LEASED = "wiki_test_lease";
const leasedPools = new Map<string, Db>();

/**
 * A test's handle on a shared pool. Closed, it refuses statements as a closed pool does (the
 * driver's `CONNECTION_ENDED`) and leaves the pool's connections open; `settled` waits for the
 * statements it started and says whether they all ended (else the database is not reused: a
 * statement still running could write into the next test's rows). The pool's connections carry
 * no session state between tests: the service sets settings per transaction only.
 */
function leaseOf(pool: Db): { db: Db; settled(): Promise<boolean> } {
  let closed = false;
  const running = new Set<Promise<unknown>>();
  const ended = () =>
    Promise.reject(
      Object.assign(new Error("write CONNECTION_ENDED"), { code: "CONNECTION_ENDED" }),
    );
  const track = <F extends (...args: never[]) => Promise<unknown>>(f: F) =>
    ((...args: Parameters<F>) => {
      if (closed) return ended();
      const statement = f(...args);
      running.add(statement);
      const done = () => running.delete(statement);
      statement.then(done, done);
      return statement;
    }) as F;
  const db = track(
    ((strings: TemplateStringsArray, ...values: unknown[]) => pool(strings, ...values)) as (
      ...args: never[]
    ) => Promise<unknown>,
  ) as unknown as Db;
  Object.defineProperty(db, "kind", { value: "postgres" });
  db.query = track(pool.query);
  db.exec = track(pool.exec);
  db.transaction = track(pool.transaction);
  const settled = async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise((resolve) => timer = setTimeout(resolve, 10_000));
    await Promise.race([Promise.allSettled([...running]), late]);
    clearTimeout(timer);
    return running.size === 0;
  };
  db.close = async () => {
    closed = true;
    await settled();
  };
  return { db, settled };
}

/** Empties a database a test is done with and keeps it for the next test, or drops it. */
async function giveBackPostgres(
  serverUrl: string,
  name: string,
  settled: () => Promise<boolean>,
): Promise<void> {
  let db = emptiers.get(name);
  if (!db) emptiers.set(name, db = openPostgres(withDatabase(serverUrl, name), { max: 1 }));
  let keep = false;
  try {
    if (!await settled()) throw new Error("a statement of the test is still running");
    // What the test left connected (a pool it did not close, a server it started) is ended,
    // as `DROP DATABASE … WITH (FORCE)` would; the shared pool's connections stay.
    await db`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid()
        AND application_name <> ${LEASED}`;
    const print = (await db.query<{ print: string }>(SCHEMA_PRINT))[0]?.print;
    if (print === postgresPrint && idlePostgres.length < 2) {
      postgresEmptying ??= emptyingScript(db);
      await db.exec(await postgresEmptying);
      keep = true;
    }
  } catch {
    keep = false;
  }
  if (keep) return void idlePostgres.push(name);
  emptiers.delete(name);
  await db.close().catch(() => {});
  await leasedPools.get(name)?.close().catch(() => {});
  leasedPools.delete(name);
  const admin = openPostgres(serverUrl, { max: 1 });
  try {
    await admin.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.close();
  }
}

/**
 * The databases still kept when this test module ends are dropped then. The unload event cannot
 * wait for a promise, so `psql` (PostgreSQL's client, beside the server) drops them.
 */
globalThis.addEventListener("unload", () => {
  if (!DATABASE_URL || idlePostgres.length === 0) return;
  // `FORCE`: the connections that emptied each and that its tests shared are still open.
  const drops = idlePostgres.splice(0).flatMap((n) => [
    "-c",
    `DROP DATABASE IF EXISTS ${n} WITH (FORCE)`,
  ]);
  try {
    new Deno.Command("psql", {
      args: ["-q", DATABASE_URL, ...drops],
      stdout: "null",
      stderr: "null",
    }).outputSync();
  } catch {
    // No psql here: the next run drops them (`sweepLeftovers`).
  }
});

/** The migrated, empty PostgreSQL database each test's database is copied from. */
let pgTemplate: Promise<string> | undefined;

/** A key of the migrations and the store's version: a changed migration makes a new template. */
async function migrationsKey(): Promise<string> {
  const migrations = await readMigrations();
  const key = await sha256Hex(JSON.stringify([
    import.meta.resolve("@electric-sql/pglite"),
    import.meta.resolve("@electric-sql/pglite-pgvector"),
    migrations.map((m) => [m.name, m.sql]),
  ]));
  return key.slice(0, 16);
}

/**
 * Migrating a new PostgreSQL database costs seconds; `CREATE DATABASE … TEMPLATE` a fraction of
 * that. The template is made once per server and set of migrations: parallel test files wait on
 * an advisory lock, the first migrates a database under a temporary name and renames it into
 * place (no session stays connected to it, which copying requires).
 */
async function postgresTemplate(serverUrl: string): Promise<string> {
  const name = `wiki_tpl_${await migrationsKey()}`;
  const admin = openPostgres(serverUrl, { max: 1 });
  try {
    await admin.query("SELECT pg_advisory_lock(727002)");
    await sweepLeftovers(admin, "wiki_t_");
    const found = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (found.length === 0) {
      const partial = `${name}_${crypto.randomUUID().replace(/-/g, "").slice(0, 8)}`;
      await admin.exec(`CREATE DATABASE ${partial}`);
      const u = new URL(serverUrl);
      u.pathname = `/${partial}`;
      const db = openPostgres(u.toString(), { max: 1 });
      await migrate(db);
      await db.close();
      await admin.exec(`ALTER DATABASE ${partial} RENAME TO ${name}`);
    }
    await admin.query("SELECT pg_advisory_unlock(727002)");
    return name;
  } finally {
    await admin.close();
  }
}

/**
 * The migrated empty store, dumped, and cached in the temporary folder under a key of the
 * migrations and the PGlite version. A new PGlite (its initdb) costs several seconds, loading a
 * dump a fraction of that: with the cache, only the first test file of a run pays it. Parallel
 * test files may write it at once; each writes its own file and renames it into place.
 */
async function templateDump(): Promise<Blob> {
  const migrations = await readMigrations();
  const dir = Deno.env.get("TMPDIR") ?? Deno.env.get("TEMP") ?? "/tmp";
  const path = `${dir}/wiki-test-pglite-${await migrationsKey()}.tar`;
  try {
    return new Blob([await Deno.readFile(path)]);
  } catch {
    // Not cached yet: make it.
  }
  const pg = await PGlite.create({ extensions: { vector } });
  await migrate(wrapPglite(pg), migrations);
  const dump = await pg.dumpDataDir("none");
  await pg.close();
  const partial = `${path}.${crypto.randomUUID()}`;
  await Deno.writeFile(partial, new Uint8Array(await dump.arrayBuffer()));
  await Deno.rename(partial, path);
  return dump;
}

/**
 * A new temporary folder for a server's `DATA_DIR`, its embedded store already made and migrated
 * (the template above unpacked into `pglite/`): a process started on it skips initdb and the
 * migrations, seconds each. With `DATABASE_URL` set the folder is left empty.
 */
export async function migratedDataDir(prefix = "wiki_data_"): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix });
  if (DATABASE_URL) return dir;
  template ??= templateDump();
  const tar = `${dir}/template.tar`;
  await Deno.writeFile(tar, new Uint8Array(await (await template).arrayBuffer()));
  await Deno.mkdir(`${dir}/pglite`);
  const untar = await new Deno.Command("tar", {
    args: ["-xf", tar, "-C", `${dir}/pglite`],
    stdout: "null",
    stderr: "piped",
  }).output();
  await Deno.remove(tar);
  if (!untar.success) throw new Error(new TextDecoder().decode(untar.stderr));
  return dir;
}

/**
 * A configuration for tests: the given overrides over the defaults. Password hashes are made
 * at scrypt N = 2^10 instead of production's 2^15 (every sign-up would otherwise cost ~150 ms);
 * a test about the production cost sets `PASSWORD_HASH_COST: "15"`.
 */
export function testConfig(env: Record<string, string> = {}): Config {
  // Tests sign many people up from one address (tests of the sign-up limit set their own),
  // and hash passwords at a cheap cost (production keeps its own).
  return loadConfig({
    BASE_URL: "http://wiki.test",
    RATE_LIMIT_SIGNUPS_PER_HOUR: "1000",
    PASSWORD_HASH_COST: "10",
    ...env,
  });
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

/**
 * `db`, counting the statements sent through it outside transactions and the rows each
 * returned; `after`, when given, runs after each statement, before its rows are handed back.
 */
export function countingDb(
  db: Db,
  after?: (text: string) => Promise<void>,
): { db: Db; statements: string[]; rows: number[] } {
  const statements: string[] = [];
  const rows: number[] = [];
  const wrapped = makeDb({
    kind: db.kind,
    inTransaction: false,
    query: async (text: string, params: unknown[]) => {
      statements.push(text);
      const read = await db.query<Row>(text, params);
      rows.push(read.length);
      await after?.(text);
      return read;
    },
    exec: (text: string) => db.exec(text),
    transaction: (inner) =>
      db.transaction((tx) =>
        inner({
          kind: tx.kind,
          inTransaction: true,
          query: (text: string, params: unknown[]) => tx.query<Row>(text, params),
          exec: (text: string) => tx.exec(text),
          transaction: () => Promise.reject(new Error("nested")),
          close: () => Promise.resolve(),
        })
      ),
    close: () => Promise.resolve(),
  });
  return { db: wrapped, statements, rows };
}

/**
 * A second handle on the store: another process with its own in-memory indexes and settings
 * (a pool of its own on PostgreSQL; on PGlite, which one process holds, the same store).
 */
export function otherProcess(db: Db & { url?: string }): Db {
  if (db.url) return openPostgres(db.url, { max: 2 });
  return Object.assign(
    (strings: TemplateStringsArray, ...values: unknown[]) => db(strings, ...values),
    {
      kind: db.kind,
      query: db.query,
      exec: db.exec,
      transaction: db.transaction,
      close: () => Promise.resolve(),
    },
  ) as Db;
}
