/**
 * Lints the served OpenAPI document with Redocly's recommended rules; exits non-zero on any
 * error. The document is built in process over a throwaway store (as `validate_openapi.ts`
 * does), written to a temp file, and handed to Redocly through `npx`, so Redocly never enters
 * the server's dependency graph (it is in no import map).
 *
 * Usage: `deno task lint:openapi` (needs Node's `npx` and the npm registry, or its cache).
 */
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config/config.ts";
import { openThrowawayStore } from "../../src/db/throwaway.ts";
import { createLog } from "../../src/lib/log.ts";
import { createOfflineEmbedder } from "../../src/search/offline_embedder.ts";

/** The Redocly CLI release the gate runs: pinned, so a new rule cannot break CI overnight. */
const REDOCLY = "@redocly/cli@2.77.0";

// Not example.com or localhost: Redocly warns about those as a server URL.
const config = loadConfig({ BASE_URL: "https://wiki.internal" });
// The document does not depend on the store: PostgreSQL when DATABASE_URL names one, else PGlite.
const { db, drop } = await openThrowawayStore({
  databaseUrl: Deno.env.get("DATABASE_URL") || undefined,
});
const file = await Deno.makeTempFile({ prefix: "openapi-", suffix: ".json" });
try {
  const app = createApp({ config, db, log: createLog("error"), embedder: createOfflineEmbedder() });
  const res = await app.request("/api/v1/openapi.json");
  if (res.status !== 200) throw new Error(`GET /api/v1/openapi.json answered ${res.status}`);
  await Deno.writeTextFile(file, JSON.stringify(await res.json(), null, 2));
  const lint = await new Deno.Command("npx", {
    args: ["-y", REDOCLY, "lint", "--extends=recommended", "--format=stylish", file],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!lint.success) Deno.exitCode = 1;
} catch (error) {
  console.error(`Could not lint the OpenAPI document: ${(error as Error).message}`);
  Deno.exitCode = 1;
} finally {
  await Deno.remove(file).catch(() => {});
  await drop();
}
