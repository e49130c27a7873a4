import assert from "node:assert/strict";
import {
  denoInfo,
  npmPackagesOf,
  SERVER_ENTRY_POINTS,
  serverLock,
} from "../scripts/server_lock.ts";

/** Development and test tools: none may reach the server or its first start. */
const DENY = [
  /^playwright/,
  /swagger/,
  /^@modelcontextprotocol\/(inspector|conformance|client)@/,
  /^oauth4webapi@/,
  /^@orama\//,
  /^typescript@/,
];

const denied = (packages: Iterable<string>) =>
  [...packages].filter((p) => DENY.some((rule) => rule.test(p)));

Deno.test("the server's module graph reaches no test tool", async () => {
  for (const entry of SERVER_ENTRY_POINTS) {
    const packages = npmPackagesOf(await denoInfo(entry));
    assert.ok(packages.size > 3, `${entry} imports its npm packages`);
    assert.deepEqual(denied(packages), [], `${entry} imports a test tool`);
  }
});

Deno.test("deno.lock, which `deno task start` installs in full, holds only the server's packages", async () => {
  const lock = JSON.parse(await Deno.readTextFile("deno.lock"));
  const packages = Object.keys(lock.npm);
  assert.deepEqual(denied(packages), []);
  // Packages with install scripts are what made every start print "Ignored build scripts".
  assert.deepEqual(packages.filter((p) => lock.npm[p].scripts), []);
  assert.deepEqual(
    lock,
    await serverLock(),
    "deno.lock is not deno.dev.lock cut to the server's graph: run `deno task lock:server`",
  );
  const config = JSON.parse(await Deno.readTextFile("deno.json"));
  assert.deepEqual(denied(Object.values(config.imports).map((s) => String(s).slice(4))), []);
});
