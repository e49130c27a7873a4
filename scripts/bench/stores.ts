import type { Db } from "../../src/db/db.ts";
import { migrate } from "../../src/db/migrate.ts";
import { openPglite } from "../../src/db/pglite.ts";
import { openPostgres } from "../../src/db/postgres.ts";

/** The database name the bench creates (and drops) on the PostgreSQL server. */
export const BENCH_DATABASE = "wiki_bench";

/** A store under test: a fresh, migrated database the bench owns, and where it lives. */
export type BenchStore = {
  name: "pglite" | "postgres";
  db: Db;
  /** PGlite: the `DATA_DIR` a server can be started on (after `close`). */
  dataDir?: string;
  /** PostgreSQL: the `DATABASE_URL` of the bench database. */
  url?: string;
  /** Closes the store's connection, keeping its data for a server to open. */
  close(): Promise<void>;
  /** Closes it if open and deletes its data. */
  drop(): Promise<void>;
};

/** An empty PGlite store in a new temporary `DATA_DIR`, as the server would open it. */
export async function openBenchPglite(): Promise<BenchStore> {
  const dataDir = await Deno.makeTempDir({ prefix: "wiki_bench_" });
  const db = await openPglite(dataDir);
  await migrate(db);
  let open = true;
  const close = async () => {
    if (open) await db.close();
    open = false;
  };
  return {
    name: "pglite",
    db,
    dataDir,
    close,
    drop: async () => {
      await close();
      await Deno.remove(dataDir, { recursive: true });
    },
  };
}

/**
 * A fresh `wiki_bench` database (or `name`) on the server of `serverUrl` (dropped first if a
 * previous run left it), migrated. Never touches the database `serverUrl` names. `reuse`: an
 * existing database of that name is kept as it is (`reused`); `keep`: `drop` closes it only.
 */
export async function openBenchPostgres(
  serverUrl: string,
  options: { name?: string; reuse?: boolean; keep?: boolean } = {},
): Promise<BenchStore & { reused: boolean }> {
  const name = options.name ?? BENCH_DATABASE;
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Not a database name: ${name}`);
  const admin = openPostgres(serverUrl, { max: 1 });
  const [found] = await admin<{ n: number }>`
    SELECT count(*)::int AS n FROM pg_database WHERE datname = ${name}`;
  const reused = Boolean(options.reuse && found!.n > 0);
  if (!reused) {
    await admin.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.exec(`CREATE DATABASE ${name}`);
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = openPostgres(url.toString());
  await migrate(db);
  let open = true;
  const close = async () => {
    if (open) await db.close();
    open = false;
  };
  return {
    name: "postgres",
    db,
    url: url.toString(),
    close,
    drop: async () => {
      await close();
      if (!options.keep) await admin.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.close();
    },
    reused,
  };
}

/**
 * The PostgreSQL server to use: `DATABASE_URL` when set, else whatever
 * `scripts/setup_postgres.sh` prints (it installs and starts PostgreSQL 15 with pgvector if
 * needed). Null, with the reason, when neither works.
 */
export async function findPostgres(
  env: Record<string, string>,
): Promise<{ url: string } | { reason: string }> {
  if (env.DATABASE_URL) return { url: env.DATABASE_URL };
  const script = new URL("../setup_postgres.sh", import.meta.url).pathname;
  try {
    const out = await new Deno.Command("bash", { args: [script], stderr: "piped", stdout: "piped" })
      .output();
    const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
    const url = lines.at(-1) ?? "";
    if (out.success && url.startsWith("postgres")) return { url };
    const err = new TextDecoder().decode(out.stderr).trim().split("\n").at(-1);
    return { reason: `scripts/setup_postgres.sh failed: ${err}` };
  } catch (error) {
    return { reason: `scripts/setup_postgres.sh could not run: ${(error as Error).message}` };
  }
}

const PG_BIN = "/usr/lib/postgresql/15/bin";

/**
 * A PostgreSQL 15 server of the bench's own: a new cluster (initdb, default settings, as the
 * shared one has) in a temporary directory, on a free loopback port, run by the `postgres`
 * user. For machines where other work restarts the shared server. Needs root and the
 * binaries and pgvector that scripts/setup_postgres.sh installs.
 */
export async function startPrivatePostgres(): Promise<{ url: string; stop: () => Promise<void> }> {
  const dir = await Deno.makeTempDir({ prefix: "wiki_bench_pg_" });
  const port = freePort();
  const asPostgres = async (command: string) => {
    const out = await new Deno.Command("su", {
      args: ["postgres", "-c", command],
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!out.success) {
      throw new Error(`${command}: ${new TextDecoder().decode(out.stderr).trim()}`);
    }
  };
  await new Deno.Command("chown", { args: ["postgres", dir] }).output();
  await asPostgres(`${PG_BIN}/initdb -D ${dir}/data -U wiki --auth=trust -E UTF8 --locale=C.UTF-8`);
  await asPostgres(
    `${PG_BIN}/pg_ctl -D ${dir}/data -l ${dir}/log -w -o ` +
      `"-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c default_text_search_config=pg_catalog.english" start`,
  );
  return {
    url: `postgres://wiki@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await asPostgres(`${PG_BIN}/pg_ctl -D ${dir}/data -m fast -w stop`).catch(() => {});
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** A loopback port nothing listens on right now. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}
