import assert from "node:assert/strict";

// The process survives a refused database connect that surfaces as a rejection nobody awaits
// (CI's partition check once ended the server so: "Uncaught (in promise) Error: connect
// ECONNREFUSED"), and any other unawaited rejection still ends it. Each case in a process of
// its own, with the driver's guards installed the way the service installs them (`openPostgres`).

async function run(reason: string): Promise<{ code: number; out: string; err: string }> {
  const script = `
    import { openPostgres } from "${new URL("../src/db/postgres.ts", import.meta.url).href}";
    openPostgres("postgres://nobody@127.0.0.1:1/none");
    Promise.reject(${reason});
    await new Promise((resolve) => setTimeout(resolve, 200));
    console.log("alive");
    Deno.exit(0);
  `;
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--lock=deno.dev.lock", script],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  return { code, out: text.decode(stdout), err: text.decode(stderr) };
}

Deno.test("a refused database connect nobody awaits is logged and dropped; the process lives", async () => {
  const refused = await run(
    `Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:44053"), ` +
      `{ code: "ECONNREFUSED", syscall: "connect" })`,
  );
  assert.equal(refused.code, 0, refused.err);
  assert.match(refused.out, /alive/);
  assert.match(refused.out + refused.err, /connection attempt failed unawaited/);
});

Deno.test("any other rejection nobody awaits still ends the process", async () => {
  const other = await run(`new Error("something else")`);
  assert.notEqual(other.code, 0);
  assert.doesNotMatch(other.out, /alive/);
  assert.match(other.err, /something else/);
});
