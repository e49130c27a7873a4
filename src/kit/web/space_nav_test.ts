import assert from "node:assert/strict";
import { Hono } from "hono";
import { emptyNav } from "../../markdown/nav_doc.ts";
import { spaceNavOf, withSpaceNav } from "./space_nav.ts";

/** An app whose wiki paths get a reader that names the wiki it was asked for. */
function app() {
  const app = new Hono();
  app.use(
    "/w/:id/*",
    withSpaceNav((wikiId) =>
      Promise.resolve({
        tree: [],
        truncated: false,
        pageCount: 1,
        doc: emptyNav(),
        titles: new Map([["Home", `home of ${wikiId}`]]),
      })
    ),
  );
  const tree = async (c: Parameters<typeof spaceNavOf>[0]) =>
    c.text((await spaceNavOf(c, c.req.param("id") ?? "none")).titles.get("Home")!);
  app.get("/w/:id", tree);
  app.get("/w/:id/-/order", tree);
  app.get("/elsewhere/:id", tree);
  return app;
}

Deno.test("a wiki's page under the mount's paths reads its tree with the reader the mount gave", async () => {
  assert.equal(await (await app().request("/w/docs")).text(), "home of docs");
  assert.equal(await (await app().request("/w/docs/-/order")).text(), "home of docs");
});

Deno.test("a route the mount gave no reader fails loudly instead of showing no tree", async () => {
  const res = await app().request("/elsewhere/docs");
  assert.equal(res.status, 500);
});
