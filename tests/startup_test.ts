import assert from "node:assert/strict";
import { DATABASE_URL, freshDb, migratedDataDir, testApp } from "./helpers.ts";

/** `deno task start` (main.ts) with this environment; stdout and stderr as text once it ends. */
function start(env: Record<string, string>) {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "--frozen", "--lock=deno.lock", "-A", "main.ts"],
    cwd: new URL("../", import.meta.url),
    env: { SEED_DOCS: "false", SYNC_SCHEDULER: "false", NO_COLOR: "1", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

Deno.test("a port already in use ends the start with one sentence naming it and PORT, no stack trace; a start says where to open the app", async () => {
  const dataDir = await migratedDataDir("startup_");
  const held = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (held.addr as Deno.NetAddr).port;
  const env = {
    DATA_DIR: dataDir,
    HOST: "127.0.0.1",
    ...(DATABASE_URL ? { DATABASE_URL } : {}),
  };
  try {
    const taken = await start({ ...env, PORT: String(port) }).output();
    const said = new TextDecoder().decode(taken.stderr);
    assert.equal(taken.code, 1);
    assert.match(said, new RegExp(`Port ${port} is already in use on 127\\.0\\.0\\.1`));
    assert.match(said, new RegExp(`PORT=${port + 1} deno task start`));
    assert.doesNotMatch(said, /AddrInUse|\n\s+at /, "no raw error or stack trace");
    held.close();

    // On a free port: one plain line on stdout with the address to open.
    const child = start({ ...env, PORT: String(port) });
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let out = "";
    const deadline = setTimeout(() => child.kill("SIGKILL"), 60_000);
    while (!out.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      out += value;
    }
    clearTimeout(deadline);
    child.kill("SIGTERM");
    await reader.cancel();
    await child.stderr.cancel();
    await child.status;
    assert.equal(
      out.split("\n")[0],
      `The wiki is running: open http://localhost:${port}/ in a browser`,
    );
  } finally {
    try {
      held.close();
    } catch { /* closed above */ }
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("REST answers CORS for token-bearing calls: any origin, no credentials, its budget headers readable, and a preflight never 401", async () => {
  await using db = await freshDb();
  const { app } = testApp(db, { RATE_LIMIT_ANON_PER_MINUTE: "1" });
  const origin = { Origin: "https://app.example" };
  const preflight = await app.request("/api/v1/spaces/notes/pages/Home", {
    method: "OPTIONS",
    headers: {
      ...origin,
      "Access-Control-Request-Method": "PUT",
      "Access-Control-Request-Headers": "authorization, content-type, if-match",
    },
  });
  assert.equal(preflight.status, 204);
  assert.equal(preflight.headers.get("access-control-allow-origin"), "*");
  assert.equal(preflight.headers.get("access-control-allow-credentials"), null);
  assert.match(preflight.headers.get("access-control-allow-methods") ?? "", /PUT/);
  // A version's settings change by PATCH (`PATCH /spaces/{id}/versions`), from a browser too.
  assert.match(preflight.headers.get("access-control-allow-methods") ?? "", /PATCH/);
  assert.match(preflight.headers.get("access-control-allow-headers") ?? "", /Authorization/i);
  assert.match(preflight.headers.get("access-control-allow-headers") ?? "", /If-Match/i);

  const unauthorized = await app.request("/api/v1/spaces", { headers: origin });
  assert.equal(unauthorized.status, 401);
  assert.equal(unauthorized.headers.get("access-control-allow-origin"), "*");
  await unauthorized.body?.cancel();

  // The 401 spent this address's budget of one: the next call is a 429 the page can read.
  const limited = await app.request("/api/v1/public/wikis", { headers: origin });
  assert.equal(limited.status, 429);
  assert.equal(limited.headers.get("access-control-allow-origin"), "*");
  const exposed = (limited.headers.get("access-control-expose-headers") ?? "").toLowerCase();
  for (const name of ["retry-after", "ratelimit", "ratelimit-policy"]) {
    assert.ok(exposed.split(/,\s*/).includes(name), `${name} is readable by the page`);
  }
  await limited.body?.cancel();
  // A preflight is never counted against the budget nor refused for it.
  const again = await app.request("/api/v1/public/wikis", {
    method: "OPTIONS",
    headers: { ...origin, "Access-Control-Request-Method": "GET" },
  });
  assert.equal(again.status, 204);
});

Deno.test("/favicon.ico is an icon", async () => {
  await using db = await freshDb();
  const { app } = testApp(db);
  const icon = await app.request("/favicon.ico");
  assert.equal(icon.status, 200);
  assert.equal(icon.headers.get("content-type"), "image/x-icon");
  const bytes = new Uint8Array(await icon.arrayBuffer());
  assert.deepEqual([...bytes.subarray(0, 4)], [0, 0, 1, 0], "an ICO header");
});
