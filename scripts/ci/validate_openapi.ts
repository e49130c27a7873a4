/**
 * Validates the service's OpenAPI document with a real validator (swagger-parser: schema
 * validation and $ref resolution), built in process over a throwaway store. Exits 1 on failure.
 */
import SwaggerParser from "npm:@apidevtools/swagger-parser@13.1.0";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config/config.ts";
import { openThrowawayStore } from "../../src/db/throwaway.ts";
import { createLog } from "../../src/lib/log.ts";
import { createOfflineEmbedder } from "../../src/search/offline_embedder.ts";

const config = loadConfig({ BASE_URL: "https://wiki.example.com" });
// The document does not depend on the store: PostgreSQL when DATABASE_URL names one (CI's eval
// stage: a database there costs less CPU than PGlite's WebAssembly start), else in-memory PGlite.
const { db, drop } = await openThrowawayStore({
  databaseUrl: Deno.env.get("DATABASE_URL") || undefined,
});
try {
  const app = createApp({ config, db, log: createLog("error"), embedder: createOfflineEmbedder() });
  const spec = await (await app.request("/api/v1/openapi.json")).json();
  const api = await SwaggerParser.validate(structuredClone(spec));
  // swagger-parser does not check that every {param} of a path is declared: we do.
  for (
    const [path, ops] of Object.entries(
      spec.paths as Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>,
    )
  ) {
    const wanted = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    for (const [method, op] of Object.entries(ops)) {
      const declared = new Set(
        (op.parameters ?? []).filter((p) => p.in === "path").map((p) => p.name),
      );
      const missing = wanted.filter((name) => !declared.has(name!));
      if (missing.length > 0) {
        throw new Error(`${method.toUpperCase()} ${path} does not declare ${missing.join(", ")}`);
      }
    }
  }
  const operations = Object.values(api.paths ?? {}).reduce(
    (n, ops) => n + Object.keys(ops ?? {}).length,
    0,
  );
  console.log(
    `OpenAPI ${(api as { openapi?: string }).openapi} document is valid: ${operations} operations`,
  );
} catch (error) {
  console.error(
    `OpenAPI document is invalid: ${error instanceof Error ? error.message : String(error)}`,
  );
  Deno.exitCode = 1;
} finally {
  await drop();
}
