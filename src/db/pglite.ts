import { PGlite, type Transaction } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { type Driver, makeDb, type Row } from "./db.ts";
import type { Db } from "./db.ts";

/** Opens the embedded PGlite store in `dataDir`, or in memory when `dataDir` is undefined. */
export async function openPglite(dataDir: string | undefined): Promise<Db> {
  if (dataDir) await Deno.mkdir(dataDir, { recursive: true });
  return wrapPglite(await PGlite.create({ dataDir, extensions: { vector } }));
}

/** A `Db` over an open PGlite instance (tests clone a migrated template this way). */
export function wrapPglite(pg: PGlite): Db {
  return makeDb(pgliteDriver(pg, false));
}

function pgliteDriver(pg: PGlite | Transaction, inTransaction: boolean): Driver {
  return {
    kind: "pglite",
    inTransaction,
    async query(text, params) {
      const result = await pg.query<Row>(text, params);
      return result.rows;
    },
    async exec(text) {
      await pg.exec(text);
    },
    transaction(fn) {
      if (!("transaction" in pg)) return fn(pgliteDriver(pg, true));
      // PGlite runs one transaction at a time; others wait on its lock.
      return pg.transaction((tx) => fn(pgliteDriver(tx, true)));
    },
    async close() {
      if ("close" in pg) await pg.close();
    },
  };
}
