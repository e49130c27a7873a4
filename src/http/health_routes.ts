import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";

/** `/healthz`: the process answers. `/readyz`: the database answers too. */
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
    return c.json({ status: "ready", store: deps.db.kind });
  });
  return app;
}
