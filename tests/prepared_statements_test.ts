import assert from "node:assert/strict";
import { loadConfig } from "../src/config/config.ts";
import { openDb } from "../src/db/open_db.ts";
import { DATABASE_URL, freshDb } from "./helpers.ts";

/** How many named prepared statements of `SELECT $1::int AS n` the session of `db` holds. */
async function preparedCount(db: Awaited<ReturnType<typeof openDb>>): Promise<number> {
  for (let i = 0; i < 3; i++) await db`SELECT ${i}::int AS n`;
  const [row] = await db<{ n: number }>`
    SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement = 'SELECT $1::int AS n'`;
  return row!.n;
}

Deno.test({
  name:
    "PostgreSQL statements are prepared once per connection unless DATABASE_PREPARED_STATEMENTS=false",
  ignore: !DATABASE_URL,
  async fn() {
    await using scratch = await freshDb({ migrate: false });
    for (const [setting, expected] of [[undefined, 1], ["true", 1], ["false", 0]] as const) {
      const config = loadConfig({
        DATABASE_URL: scratch.url!,
        DATABASE_POOL_SIZE: "1",
        ...(setting ? { DATABASE_PREPARED_STATEMENTS: setting } : {}),
      });
      const db = await openDb(config);
      try {
        assert.equal(await preparedCount(db), expected, `DATABASE_PREPARED_STATEMENTS=${setting}`);
      } finally {
        await db.close();
      }
    }
  },
});

Deno.test("DATABASE_PREPARED_STATEMENTS is true by default and takes true or false only", () => {
  assert.equal(loadConfig({}).databasePreparedStatements, true);
  assert.equal(
    loadConfig({ DATABASE_PREPARED_STATEMENTS: "false" }).databasePreparedStatements,
    false,
  );
  assert.throws(
    () => loadConfig({ DATABASE_PREPARED_STATEMENTS: "no" }),
    /DATABASE_PREPARED_STATEMENTS/,
  );
});
