import assert from "node:assert/strict";
import { ConfigError, loadConfig } from "./config.ts";

Deno.test("a wrong configuration value stops start-up with a message naming the variable", () => {
  assert.throws(() => loadConfig({ PORT: "eighty" }), (e: ConfigError) => /PORT/.test(e.message));
  assert.throws(() => loadConfig({ DATABASE_URL: "mysql://x/y" }), /DATABASE_URL/);
  assert.throws(() => loadConfig({ LOG_LEVEL: "loud" }), /LOG_LEVEL/);
  const config = loadConfig({ PORT: "9000", BASE_URL: "https://wiki.example.com/" });
  assert.equal(config.baseUrl, "https://wiki.example.com");
  assert.equal(loadConfig({ PORT: "9000" }).baseUrl, "http://localhost:9000");
  assert.throws(
    () => loadConfig({ DENO_DEPLOYMENT_ID: "abc" }),
    /DATABASE_URL: required on Deno Deploy/,
  );
  assert.equal(
    loadConfig({ DENO_DEPLOYMENT_ID: "abc", DATABASE_URL: "postgres://u:p@db/w" }).databaseUrl,
    "postgres://u:p@db/w",
  );
});

Deno.test("PASSWORD_HASH_COST sets scrypt's N; the default is production's 2^15", () => {
  assert.deepEqual(loadConfig({}).passwordHash, { N: 32768, r: 8, p: 1 });
  assert.deepEqual(loadConfig({ PASSWORD_HASH_COST: "10" }).passwordHash, { N: 1024, r: 8, p: 1 });
  assert.throws(() => loadConfig({ PASSWORD_HASH_COST: "9" }), /PASSWORD_HASH_COST/);
  assert.throws(() => loadConfig({ PASSWORD_HASH_COST: "21" }), /PASSWORD_HASH_COST/);
});
