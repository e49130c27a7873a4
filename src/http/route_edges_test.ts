import assert from "node:assert/strict";
import { Hono } from "hono";
import { AppError } from "../errors.ts";
import { createLog } from "../lib/log.ts";
import { bodyLimit } from "./body_limit.ts";
import { problemResponse } from "./problem.ts";
import { DEFAULT_BODY_LIMIT, requestLimits } from "./request_limits.ts";
import { requestTimeout, timeout } from "./request_timeout.ts";

const log = createLog("error", () => {});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An app with the app-wide defaults and routes that declare their own edges. */
function edgesApp(): Hono {
  const app = new Hono();
  app.use(requestLimits());
  app.use(requestTimeout({ ms: 50, log }));
  app.get("/slow", async (c) => {
    await sleep(300);
    return c.text("done");
  });
  app.get("/slow-declared", timeout({ ms: 60_000, log }), async (c) => {
    await sleep(300);
    return c.text("done");
  });
  app.post("/small", async (c) => c.text(String((await c.req.arrayBuffer()).byteLength)));
  app.post(
    "/large",
    bodyLimit(4 * DEFAULT_BODY_LIMIT),
    async (c) => c.text(String((await c.req.arrayBuffer()).byteLength)),
  );
  // A router with its own error handler: Hono wraps its handlers when it is mounted.
  const sub = new Hono();
  sub.post(
    "/large",
    bodyLimit(4 * DEFAULT_BODY_LIMIT),
    async (c) => c.text(String((await c.req.arrayBuffer()).byteLength)),
  );
  sub.onError((error, c) => problemResponse(c, error as AppError));
  app.route("/sub", sub);
  app.onError((error, c) => problemResponse(c, error as AppError));
  return app;
}

Deno.test("a route's declared timeout replaces the default one", async () => {
  const app = edgesApp();
  const slow = await app.request("/slow");
  assert.equal(slow.status, 503);
  assert.equal((await slow.json()).timeout_ms, 50);
  const declared = await app.request("/slow-declared");
  assert.equal(declared.status, 200);
  assert.equal(await declared.text(), "done");
});

Deno.test("a route's declared body limit replaces the default one, also in a mounted router", async () => {
  const app = edgesApp();
  const body = new Uint8Array(2 * DEFAULT_BODY_LIMIT);
  const post = (path: string) => app.request(path, { method: "POST", body });
  assert.equal((await post("/small")).status, 413);
  for (const path of ["/large", "/sub/large"]) {
    const res = await post(path);
    assert.deepEqual([path, res.status, await res.text()], [path, 200, String(body.length)]);
  }
  const tooLarge = await app.request("/large", {
    method: "POST",
    body: new Uint8Array(4 * DEFAULT_BODY_LIMIT + 1),
  });
  assert.equal(tooLarge.status, 413);
});
