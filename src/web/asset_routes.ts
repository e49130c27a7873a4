import { Hono } from "hono";

const ASSETS = new URL("./assets/", import.meta.url);
const NAME = /^(vendor\/)?[a-z0-9_]+\.(js|svg)$/;
const TYPES: Record<string, string> = {
  js: "text/javascript; charset=utf-8",
  svg: "image/svg+xml",
};

/**
 * The web app's few scripts and its icon, served from `src/web/assets/` at `/assets/<name>` (the CSP
 * allows scripts from this origin only, never inline). Read once and kept in memory; on Deno
 * Deploy the files ship with the deployment.
 */
export function assetRoutes(): Hono {
  const app = new Hono();
  const cache = new Map<string, string>();
  app.get("/assets/:name{(vendor/)?[a-z0-9_]+\\.(js|svg)}", async (c) => {
    const name = c.req.param("name");
    if (!NAME.test(name)) return c.notFound();
    let body = cache.get(name);
    if (body === undefined) {
      try {
        body = await Deno.readTextFile(new URL(name, ASSETS));
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) return c.notFound();
        throw error;
      }
      cache.set(name, body);
    }
    return c.body(body, 200, {
      "Content-Type": TYPES[name.slice(name.lastIndexOf(".") + 1)]!,
      "Cache-Control": "public, max-age=300",
    });
  });
  return app;
}
