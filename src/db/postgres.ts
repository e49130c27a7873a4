import postgres from "postgres";
import { parseArrayLiteral } from "./parse_array_literal.ts";
import { type Driver, makeDb, type Row } from "./db.ts";
import type { Db } from "./db.ts";
import { createLog } from "../lib/log.ts";

type Sql = postgres.Sql | postgres.TransactionSql;

/**
 * Connects to PostgreSQL at `url` through a postgres.js pool; `prepare` (default true): each
 * statement is a named prepared statement (see `postgresDriver`); `connectTimeoutSeconds`
 * (default 5: fail fast while the database is down) bounds each new connection.
 */
export function openPostgres(
  url: string,
  options: { max?: number; prepare?: boolean; connectTimeoutSeconds?: number } = {},
): Db {
  survivePostgresWriteRace();
  const prepare = options.prepare ?? true;
  const sql = postgres(url, {
    max: options.max ?? 10,
    // The driver's own statements too: `commit`, `rollback` and `savepoint` of a transaction
    // are statements it prepares under this setting, not ours. Left prepared behind a pooler
    // that does not keep prepared statements, a `commit` could land on a server connection that
    // never prepared it: it failed (SQLSTATE 26000), which aborted the transaction, and the
    // driver's retry of that `commit` then ended the aborted transaction with a ROLLBACK that
    // reports no error. The transaction's writes were lost while the caller saw success (two
    // processes migrating through PgBouncer both "applied" a migration that one of them had
    // silently rolled back; tests/migrate_pooler_test.ts).
    prepare,
    // Fail fast while the database is down (503s), instead of holding requests for 30 s.
    connect_timeout: options.connectTimeoutSeconds ?? 5,
    // Reconnect attempts at most ~2 s apart (the default backs off to 20 s), so that service
    // resumes within a couple of seconds of the database's return.
    backoff: (retries: number) => (0.5 + Math.random() / 2) * Math.min(0.1 * 2 ** retries, 2),
    onnotice: () => {},
    types: {
      // int8 (counts, ids) as numbers, as PGlite returns them; our ids stay far below 2^53.
      bigint: {
        to: 20,
        from: [20],
        serialize: (value: number) => String(value),
        parse: (value: string) => Number(value),
      },
      ...ARRAY_TYPES,
    },
  });
  return makeDb(postgresDriver(sql, false, prepare));
}

const number = (x: string) => Number(x);
const text = (x: string) => x;

/**
 * Arrays of the element types our statements return, parsed by parsers the pool has from the
 * start (`parseArrayLiteral`), not only by the ones postgres.js fetches on each new connection.
 * With 3.4.9, the first statement on a new connection, when over 1 KiB (written to the socket at
 * once), was now and then described before that connection's fetched array types were
 * registered: its description kept no parser for as long as the connection lived, and its
 * arrays came back as text. The replica's search statistics are such a statement, the first on
 * the reader's replica connection: their terms (`{zucchini}`) were read letter by letter, and
 * every search through that process found nothing (tests/replica_test.ts, docs/performance.md).
 * Array parameters are written by `arrayLiteral` already; strings pass through.
 */
const ARRAY_TYPES = Object.fromEntries(
  ([
    ["text", 1009, text],
    ["varchar", 1015, text],
    ["name", 1003, text],
    ["int2", 1005, number],
    ["int4", 1007, number],
    ["int8", 1016, number],
    ["float4", 1021, number],
    ["float8", 1022, number],
    ["oid", 1028, number],
    ["bool", 1000, (x: string) => x === "t"],
  ] as const).map(([name, oid, element]) => [`${name}_array`, {
    to: oid,
    from: [oid],
    serialize: (value: unknown) => typeof value === "string" ? value : String(arrayLiteral(value)),
    parse: (value: string) => parseArrayLiteral(value, element),
  }]),
);

function postgresDriver(sql: Sql, inTransaction: boolean, prepare: boolean): Driver {
  return {
    kind: "postgres",
    inTransaction,
    async query(text, params) {
      // Named prepared statements, one per text and connection (our texts are fixed per call
      // site): unprepared, postgres.js sends a statement with parameters as Parse + Describe,
      // waits for the types, then Bind + Execute — two round trips — and PostgreSQL parses and
      // plans it every time. Prepared, it is one Bind + Execute; a search cost 1.2 ms less CPU
      // at 100k chunks (docs/performance.md, "Less CPU per search"). Off with
      // DATABASE_PREPARED_STATEMENTS=false, for transaction poolers that do not keep them.
      try {
        // deno-lint-ignore no-explicit-any
        const rows = await sql.unsafe(text, params.map(arrayLiteral) as any[], { prepare });
        // A plain array, as PGlite gives, not postgres.js's Result subclass.
        return Array.from(rows) as Row[];
      } catch (error) {
        if (prepare) warnIfPreparedStatementLost(error);
        throw error;
      }
    },
    async exec(text) {
      await sql.unsafe(text);
    },
    async transaction(fn) {
      if (!("begin" in sql)) return fn(postgresDriver(sql, true, prepare));
      return await sql.begin((tx) => fn(postgresDriver(tx, true, prepare))) as Awaited<
        ReturnType<typeof fn>
      >;
    },
    async close() {
      if ("end" in sql) await sql.end({ timeout: 5 });
    },
  };
}

/**
 * An array parameter as PostgreSQL's array literal (`{"a","b"}`), written here rather than by
 * postgres.js. The driver serializes an array by the type the server described for that
 * parameter; a statement sent before its description was back on that connection (two requests
 * on a fresh connection) went with no type, and the array as `String(["notes"])`: "notes", which
 * the server refused ("malformed array literal", a search on a replica answered "Internal
 * error"). Every array we pass is cast in its SQL (`::text[]`, `::bigint[]`), and postgres.js
 * passes a string through its array serializer as is. Arrays of other things (none today) are
 * left to the driver.
 */
export function arrayLiteral(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  const items: string[] = [];
  for (const item of value) {
    if (item === null || item === undefined) items.push("NULL");
    else if (typeof item === "number" || typeof item === "bigint") items.push(String(item));
    else if (typeof item === "boolean") items.push(item ? "t" : "f");
    else if (typeof item === "string") {
      items.push(`"${item.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`);
    } else return value;
  }
  return `{${items.join(",")}}`;
}

let warnedLost = false;
/** The driver's own warnings, in the service's log format (it has no `Deps` to hand). */
const driverLog = createLog("warn");

/**
 * "prepared statement … does not exist" (SQLSTATE 26000): a transaction pooler (PgBouncer
 * before 1.21, or without `max_prepared_statements`) ran the statement on a server connection
 * that never prepared it. postgres.js retries it once outside a transaction; inside one the
 * transaction fails. Said once in the log, with the setting that fixes it.
 */
function warnIfPreparedStatementLost(error: unknown): void {
  if ((error as { code?: unknown })?.code !== "26000" || warnedLost) return;
  warnedLost = true;
  driverLog.warn(
    "a prepared statement was lost: the database is reached through a pooler that " +
      "does not keep prepared statements; set DATABASE_PREPARED_STATEMENTS=false",
  );
}

let guarded = false;

/**
 * postgres.js 3.4.9 can write to a connection's socket from a `setImmediate` after the
 * connection closed (the database went away mid-write): an uncaught `TypeError` that would end
 * the process (porsager/postgres#1154, #1208; unfixed upstream). The query it belonged to has
 * already failed with `CONNECTION_CLOSED`, so that one error is logged and dropped; any other
 * uncaught error still ends the process.
 */
function survivePostgresWriteRace(): void {
  if (guarded) return;
  guarded = true;
  globalThis.addEventListener("error", (event) => {
    const error = event.error;
    if (
      error instanceof TypeError && /reading 'write'/.test(error.message) &&
      /postgres[\s\S]*nextWrite|nextWrite[\s\S]*postgres/.test(error.stack ?? "")
    ) {
      event.preventDefault();
      driverLog.warn("database connection closed mid-write: postgres.js error dropped");
    }
  });
  // A connection attempt refused or reset while the database is cut off can also surface as a
  // rejection nobody awaits (seen once in CI's partition check, with its proxy refusing:
  // "Uncaught (in promise) Error: connect ECONNREFUSED", and the process ended). The queries
  // waiting on that connection fail on their own path with the database unavailable (503); a
  // rejection no caller awaits answers no one, so that one kind is logged and dropped.
  globalThis.addEventListener("unhandledrejection", (event) => {
    if (!isRefusedConnect(event.reason)) return;
    event.preventDefault();
    driverLog.warn("database connection attempt failed unawaited: dropped", {
      error: String(event.reason),
    });
  });
}

/** A socket's failed connect to the database: refused, reset or timed out, `syscall` "connect". */
function isRefusedConnect(error: unknown): boolean {
  const e = error as { code?: unknown; syscall?: unknown } | null;
  return e !== null && typeof e === "object" && e.syscall === "connect" &&
    ["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT"].includes(String(e.code));
}
