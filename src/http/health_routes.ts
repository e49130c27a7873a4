import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { lexicalCacheReport } from "../search/lexical_cache.ts";

/**
 * `/healthz`: the process answers. `/readyz`: the database answers too, with the search index
 * cache's figures for this process.
 */
export function healthRoutes(deps: Deps): Hono {
  const app = new Hono();
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.get("/readyz", async (c) => {
    try {
      await deps.db`SELECT 1`;
    } catch (error) {
      deps.log.warn("readiness check failed", { error: String(error) });
      throw new AppError("database_unavailable", "The database does not answer");
    }
    const cache = lexicalCacheReport(deps.db);
    const mib = (bytes: number) => Math.round(bytes / 1024 / 102.4) / 10;
    return c.json({
      status: "ready",
      store: deps.db.kind,
      // This process's search index cache: what it holds against its bound, and how many
      // searches since start were answered from memory alone or with the SQL leg.
      index_cache: {
        wikis: cache.wikis,
        mib: mib(cache.bytes),
        bound_mib: mib(deps.config.searchIndexBytes),
        searches_in_memory: cache.searches_in_memory,
        searches_with_sql: cache.searches_with_sql,
      },
    });
  });
  return app;
}
