import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { parseQuery } from "../http/validate.ts";
import { listPublicWikis, listPublicWikisInput } from "./list_public_wikis.ts";

/** REST reads of public wikis, under `/api/v1/public`; no credentials needed. */
export function publicWikiRoutes(deps: Deps): Hono {
  const app = new Hono();
  app.get("/wikis", async (c) => {
    const input = parseQuery(c, listPublicWikisInput);
    return c.json(await listPublicWikis(deps, input));
  });
  return app;
}
