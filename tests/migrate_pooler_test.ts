import assert from "node:assert/strict";
import { migrate, readMigrations } from "../src/db/migrate.ts";
import { openPostgres } from "../src/db/postgres.ts";

const DATABASE_URL = Deno.env.get("DATABASE_URL") || undefined;
/** Where the project's setup script starts PgBouncer (or finds it already listening). */
const PGBOUNCER_PORT = Deno.env.get("PGBOUNCER_PORT") ?? "5442";

/**
 * PgBouncer in transaction mode in front of DATABASE_URL's server, from the project's own
 * setup script (idempotent: a PgBouncer already on the port is used as it is). Its URL.
 */
async function pgbouncer(): Promise<string> {
  const server = new URL(DATABASE_URL!);
  if (server.port === PGBOUNCER_PORT) return DATABASE_URL!;
  const out = await new Deno.Command("bash", {
    args: ["scripts/setup_pgbouncer.sh"],
    cwd: new URL("../", import.meta.url),
    env: {
      PGBOUNCER_PORT,
      PG_HOST: server.hostname,
      PG_PORT: server.port || "5432",
      PGUSER_NAME: decodeURIComponent(server.username),
      PGPASSWORD_VALUE: decodeURIComponent(server.password),
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout).trim().split("\n").at(-1)!;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

Deno.test({
  name:
    "three processes migrating one database at once through PgBouncer apply each migration once",
  ignore: !DATABASE_URL,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const bouncer = await pgbouncer();
    const files = (await readMigrations()).map((m) => m.name);
    const admin = openPostgres(DATABASE_URL!, { max: 1, prepare: false });
    const names: string[] = [];
    try {
      // Before the fix every round of three lost a transaction or more: a `commit` the driver
      // had prepared on another server connection failed, and its retry rolled back silently.
      for (let round = 0; round < 3; round++) {
        const name = `wiki_migpool_${crypto.randomUUID().replace(/-/g, "").slice(0, 12)}`;
        await admin.exec(`CREATE DATABASE ${name}`);
        names.push(name);
        // Three processes' pools, as a transaction pooler without prepared statements needs.
        const pools = [0, 1, 2].map(() =>
          openPostgres(withDatabase(bouncer, name), { max: 4, prepare: false })
        );
        try {
          const applied = await Promise.all(pools.map((db) => migrate(db)));
          assert.deepEqual(applied.flat().toSorted(), files, `round ${round}`);
          const [row] = await pools[0]!<{ n: number }>`
            SELECT count(*)::int AS n FROM schema_migrations`;
          assert.equal(row!.n, files.length);
          // Every migration's work is there, not only its record: the last one's table.
          const [shares] = await pools[0]!<{ t: string | null }>`
            SELECT to_regclass('space_shares')::text AS t`;
          assert.equal(shares!.t, "space_shares");
        } finally {
          await Promise.all(pools.map((db) => db.close()));
        }
      }
    } finally {
      for (const name of names) await admin.exec(`DROP DATABASE ${name} WITH (FORCE)`);
      await admin.close();
    }
  },
});

Deno.test({
  name: "a transaction through PgBouncer without prepared statements commits what it wrote",
  ignore: !DATABASE_URL,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const bouncer = await pgbouncer();
    const admin = openPostgres(DATABASE_URL!, { max: 1, prepare: false });
    const name = `wiki_txpool_${crypto.randomUUID().replace(/-/g, "").slice(0, 12)}`;
    await admin.exec(`CREATE DATABASE ${name}`);
    // Two pools on one database: their client connections share PgBouncer's server connections.
    const a = openPostgres(withDatabase(bouncer, name), { max: 4, prepare: false });
    const b = openPostgres(withDatabase(bouncer, name), { max: 4, prepare: false });
    try {
      await a.exec("CREATE TABLE written (n integer PRIMARY KEY)");
      const writes = Array.from(
        { length: 200 },
        (_, n) =>
          (n % 2 ? a : b).transaction(async (tx) => {
            await tx`INSERT INTO written (n) VALUES (${n})`;
          }),
      );
      await Promise.all(writes);
      const [row] = await a<{ n: number }>`SELECT count(*)::int AS n FROM written`;
      assert.equal(row!.n, 200, "every transaction that returned was committed");
    } finally {
      await a.close();
      await b.close();
      await admin.exec(`DROP DATABASE ${name} WITH (FORCE)`);
      await admin.close();
    }
  },
});
