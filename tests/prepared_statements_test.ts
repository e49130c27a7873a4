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

Deno.test({
  name:
    "a prepared statement lost behind a pooler fails its transaction and the log names DATABASE_PREPARED_STATEMENTS=false once",
  ignore: !DATABASE_URL,
  async fn() {
    await using scratch = await freshDb({ migrate: false });
    const db = await openDb(loadConfig({ DATABASE_URL: scratch.url!, DATABASE_POOL_SIZE: "1" }));
    const logged: string[] = [];
    const error = console.error;
    console.error = (line: string) => logged.push(line);
    try {
      for (let i = 0; i < 2; i++) {
        await db`SELECT ${i}::int AS n`;
        // What a transaction pooler does: the next statement runs on a server connection that
        // never prepared it.
        await db.exec("DEALLOCATE ALL");
        await assert.rejects(
          db.transaction((tx) => tx`SELECT ${i}::int AS n`),
          (e: { code?: string }) => e.code === "26000",
        );
      }
    } finally {
      console.error = error;
      await db.close();
    }
    const warnings = logged.filter((l) => /DATABASE_PREPARED_STATEMENTS=false/.test(l));
    assert.equal(warnings.length, 1, logged.join("\n"));
    assert.equal(JSON.parse(warnings[0]!).level, "warn");
  },
});
