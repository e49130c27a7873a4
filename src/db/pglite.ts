import { PGlite, type Transaction } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { type Driver, makeDb, type Row } from "./db.ts";
import type { Db } from "./db.ts";
import { DEFAULT_PGLITE_SHARED_BUFFERS_MB } from "../config/config.ts";

/**
 * The start options of an embedded store. PostgreSQL's `shared_buffers` (128 MB in the
 * `postgresql.conf` PGlite's initdb writes) lives in PGlite's WebAssembly memory, which
 * Emscripten zeroes when it maps it, so all of it is resident from the start and the memory
 * never shrinks. 32 MB holds what searches read again at 10k chunks; beyond that PostgreSQL
 * reads through the kernel's file cache, which is not this process's memory (docs/performance.md,
 * "PGlite's memory"). `-c` on the command line overrides the file, so stores made before get it.
 */
function pgliteOptions(sharedBuffersMb = DEFAULT_PGLITE_SHARED_BUFFERS_MB) {
  return {
    extensions: { vector },
    startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${sharedBuffersMb}MB`],
  };
}

/**
 * Opens the embedded PGlite store in `dataDir/pglite`, or in memory when `dataDir` is
 * undefined, with `sharedBuffersMb` of page cache. PGlite is one process's database: a lock
 * file keeps a second process (a server and an import at once) from opening, and
 * corrupting, the same directory.
 */
export async function openPglite(
  dataDir: string | undefined,
  sharedBuffersMb?: number,
): Promise<Db> {
  const options = pgliteOptions(sharedBuffersMb);
  if (!dataDir) return wrapPglite(await PGlite.create(options));
  await Deno.mkdir(dataDir, { recursive: true });
  const lock = await lockDataDir(dataDir);
  try {
    const pg = await PGlite.create({ ...options, dataDir: `${dataDir}/pglite` });
    return makeDb(pgliteDriver(pg, false, lock));
  } catch (error) {
    lock.close();
    throw error;
  }
}

/** A `Db` over an open PGlite instance (tests clone a migrated template this way). */
export function wrapPglite(pg: PGlite): Db {
  return makeDb(pgliteDriver(pg, false));
}

async function lockDataDir(dataDir: string): Promise<Deno.FsFile> {
  const file = await Deno.open(`${dataDir}/pglite.lock`, { create: true, write: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const busy = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(
        new Error(
          `DATA_DIR "${dataDir}" is in use by another process of this service: stop it first, ` +
            "or point both at one PostgreSQL with DATABASE_URL",
        ),
      );
    }, 3000);
  });
  try {
    await Promise.race([file.lock(true), busy]);
  } finally {
    clearTimeout(timer);
  }
  return file;
}

/** PostgreSQL's type id of `bytea`. */
const BYTEA = 17;

/**
 * `bytea` to and from PostgreSQL's hex text (`\\x0a1b…`) with the runtime's own hex codec.
 * PGlite's default parses and writes a byte at a time through a JavaScript callback (about a
 * millisecond a kilobyte): reading one 5 MB file held the event loop for seconds (issue 26.1).
 */
const BYTEA_CODEC = {
  parsers: { [BYTEA]: (text: string) => Uint8Array.fromHex(text.slice(2)) },
  serializers: {
    [BYTEA]: (value: unknown) => {
      if (!(value instanceof Uint8Array)) throw new Error("Invalid input for bytea type");
      return `\\x${value.toHex()}`;
    },
  },
};

function pgliteDriver(
  pg: PGlite | Transaction,
  inTransaction: boolean,
  lock?: Deno.FsFile,
): Driver {
  return {
    kind: "pglite",
    inTransaction,
    async query(text, params) {
      const result = await pg.query<Row>(text, params, BYTEA_CODEC);
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
      lock?.close();
    },
  };
}
