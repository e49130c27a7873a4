import postgres from "postgres";
import { type Driver, makeDb, type Row } from "./db.ts";
import type { Db } from "./db.ts";

type Sql = postgres.Sql | postgres.TransactionSql;

/** Connects to PostgreSQL at `url` through a postgres.js pool. */
export function openPostgres(url: string, options: { max?: number } = {}): Db {
  const sql = postgres(url, {
    max: options.max ?? 10,
    // Fail fast while the database is down (503s), instead of holding requests for 30 s.
    connect_timeout: 5,
    onnotice: () => {},
    // int8 (counts, ids) as numbers, as PGlite returns them; our ids stay far below 2^53.
    types: {
      bigint: {
        to: 20,
        from: [20],
        serialize: (value: number) => String(value),
        parse: (value: string) => Number(value),
      },
    },
  });
  return makeDb(postgresDriver(sql, false));
}

function postgresDriver(sql: Sql, inTransaction: boolean): Driver {
  return {
    kind: "postgres",
    inTransaction,
    async query(text, params) {
      // deno-lint-ignore no-explicit-any
      const rows = await sql.unsafe(text, params as any[]);
      // A plain array, as PGlite gives, not postgres.js's Result subclass.
      return Array.from(rows) as Row[];
    },
    async exec(text) {
      await sql.unsafe(text);
    },
    async transaction(fn) {
      if (!("begin" in sql)) return fn(postgresDriver(sql, true));
      return await sql.begin((tx) => fn(postgresDriver(tx, true))) as Awaited<
        ReturnType<typeof fn>
      >;
    },
    async close() {
      if ("end" in sql) await sql.end({ timeout: 5 });
    },
  };
}
