/**
 * Rate limits on real servers: the N+1st request in a window gets 429 with a correct
 * `Retry-After`, requests pass again after it, and two processes on one PostgreSQL share the
 * budget.
 */
import { addFigures, type RunContext, tally } from "./check.ts";
import { makeStore, seedFixtures, sleep, startServer } from "./harness.ts";

const BUDGET = 10;
const WINDOW_SECONDS = 4;

/** One request to an anonymous, rate-limited route: status, Retry-After, client time. */
async function hit(url: string) {
  const res = await fetch(`${url}/api/v1/public/wikis`);
  await res.body?.cancel();
  return { status: res.status, retryAfter: res.headers.get("retry-after"), at: performance.now() };
}

/** The single-process checks on PGlite. */
export async function checkLimits(ctx: RunContext): Promise<void> {
  const store = await makeStore("pglite");
  try {
    await seedFixtures(store, 2);
    const server = await startServer({
      ...store.env,
      RATE_LIMIT_ANON_PER_MINUTE: String(BUDGET),
      RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
    });
    try {
      const started = performance.now();
      const results = [];
      for (let i = 0; i <= BUDGET; i++) results.push(await hit(server.url));
      const statuses = results.map((r) => r.status);
      const last = results.at(-1)!;
      const retryAfter = Number(last.retryAfter);
      // The window opened at the first request, so at most this much of it is left (as the
      // client measures it; 0.25 s allows for the requests' own round trips on loopback).
      const remaining = WINDOW_SECONDS - (last.at - started) / 1000;
      const exact = statuses.slice(0, BUDGET).every((s) => s === 200) && last.status === 429;
      const sane = Number.isInteger(retryAfter) && retryAfter >= 1 &&
        retryAfter <= Math.ceil(remaining + 0.25) && retryAfter >= Math.floor(remaining);
      ctx.verdict({
        name: `limits: of ${
          BUDGET + 1
        } requests in a ${WINDOW_SECONDS} s window only the last gets 429`,
        ok: exact,
        detail: `statuses ${statuses.join(" ")}`,
      });
      ctx.verdict({
        name: "limits: Retry-After is whole seconds within what is left of the window",
        ok: sane,
        detail: `Retry-After ${last.retryAfter}, window left ${remaining.toFixed(2)} s`,
      });
      await sleep(retryAfter * 1000 + 100);
      const after = [];
      for (let i = 0; i < 3; i++) after.push((await hit(server.url)).status);
      ctx.verdict({
        name: "limits: after Retry-After, requests pass again",
        ok: after.every((s) => s === 200),
        detail: `statuses after waiting: ${after.join(" ")}`,
      });
      addFigures(
        ctx,
        "Rate limits",
        `- One process (PGlite), budget ${BUDGET} per ${WINDOW_SECONDS} s window: statuses ` +
          `${tally(statuses)}; the 429 came ${((last.at - started) / 1000).toFixed(2)} s into ` +
          `the window with \`Retry-After: ${last.retryAfter}\`; after waiting it: ${
            after.join(", ")
          }.`,
      );
    } finally {
      await server.stop();
    }
  } finally {
    await store.dispose();
  }
}

/** Two server processes on one PostgreSQL database count against one budget. */
export async function checkSharedLimits(ctx: RunContext): Promise<void> {
  const name = "limits: two processes on one PostgreSQL share the budget";
  if (!ctx.databaseUrl) {
    ctx.verdict({ name, ok: false, detail: "no PostgreSQL (DATABASE_URL)" });
    return;
  }
  const store = await makeStore("postgres", ctx.databaseUrl);
  try {
    await seedFixtures(store, 2);
    const env = {
      ...store.env,
      RATE_LIMIT_ANON_PER_MINUTE: String(BUDGET),
      RATE_LIMIT_WINDOW_SECONDS: "30",
    };
    const servers = await Promise.all([startServer(env), startServer(env)]);
    try {
      const statuses = [];
      for (let i = 0; i <= BUDGET; i++) {
        statuses.push((await hit(servers[i % 2]!.url)).status);
      }
      const second = (await hit(servers[0]!.url)).status;
      ctx.verdict({
        name,
        ok: statuses.slice(0, BUDGET).every((s) => s === 200) && statuses[BUDGET] === 429 &&
          second === 429,
        detail: `alternating A/B: ${statuses.join(" ")}; then A: ${second}`,
      });
      addFigures(
        ctx,
        "Rate limits",
        `- Two processes on one PostgreSQL, budget ${BUDGET}, requests alternating between ` +
          `them: ${statuses.join(" ")}, then ${second} on the first again.`,
      );
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  } finally {
    await store.dispose();
  }
}
