/**
 * Bad input on a real server: thousands of generated hostile requests over MCP, REST, OAuth and
 * the web pages, plus malformed HTTP on raw sockets. No answer may be a 5xx, the server must
 * stay up, no data may change, and no log line may hold the token the requests carried.
 */
import { addFigures, type RunContext, tally } from "./check.ts";
import {
  dataFingerprint,
  makeStore,
  pool,
  seedFixtures,
  startServer,
  withStore,
} from "./harness.ts";
import { hostileRequests, type Probe } from "./hostile_requests.ts";

/** Malformed HTTP that no fetch client would send: Deno.serve answers most of it itself. */
const RAW_REQUESTS = [
  "GARBAGE\r\n\r\n",
  "GET / HTTP/1.1\r\n\r\n",
  "GET /\r\n\r\n",
  "GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n",
  "GET /%00 HTTP/1.1\r\nHost: x\r\n\r\n",
  "GET /api/v1/public/wikis/%ff HTTP/1.1\r\nHost: x\r\n\r\n",
  "GET /healthz HTTP/1.1\r\nHost: x\r\nX: a\r\n b\r\n\r\n",
  "GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header: v\r\n\r\n",
  "GET /healthz HTTP/1.1\r\nHost: x\r\nX: \x01\x02\r\n\r\n",
  "POST /mcp/hub/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{}",
  "POST /mcp/hub/ HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!",
  "POST /mcp/hub/ HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n",
  "POST /mcp/hub/ HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
  "POST /register HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
  `GET /healthz HTTP/1.1\r\nHost: x\r\n${"X-H: v\r\n".repeat(200)}\r\n`,
  `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(70_000)}\r\n\r\n`,
  `GET /${"a".repeat(70_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
];

/** Sends raw bytes and returns the status of the answer, or how the connection ended. */
async function sendRaw(port: number, request: string): Promise<string> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    await conn.write(new TextEncoder().encode(request)).catch(() => {});
    const buffer = new Uint8Array(512);
    const timer = setTimeout(() => conn.close(), 5000);
    try {
      const n = await conn.read(buffer).catch(() => null);
      if (!n) return "closed";
      return /^HTTP\/1\.[01] (\d{3})/.exec(new TextDecoder().decode(buffer.subarray(0, n)))?.[1] ??
        "garbled";
    } finally {
      clearTimeout(timer);
    }
  } finally {
    try {
      conn.close();
    } catch {
      // closed by the timer
    }
  }
}

/** Sends one probe; the status, `internal` for an MCP tool's internal error, or `client`. */
async function send(url: string, probe: Probe): Promise<string> {
  try {
    const res = await fetch(url + probe.path, {
      method: probe.method,
      headers: probe.headers,
      body: probe.method === "GET" || probe.method === "HEAD"
        ? undefined
        : probe.body as BodyInit | undefined,
    });
    const text = await res.text();
    if (text.includes("Internal error: the tool could not run")) return "internal";
    // Every 429 says when to retry (issue 26.11), and its `RateLimit` agrees.
    if (res.status === 429 && !retryStated(res)) return "429 without Retry-After";
    return String(res.status);
  } catch (error) {
    return `client: ${(error as Error).name}`;
  }
}

/** Whether a 429 carries `Retry-After` and a `RateLimit` whose `t` is the same. */
function retryStated(res: Response): boolean {
  const retry = res.headers.get("retry-after");
  const t = /;t=(\d+)/.exec(res.headers.get("ratelimit") ?? "")?.[1];
  return retry !== null && /^\d+$/.test(retry) && t === retry;
}

/** The check: `count` probes (10,000 in both forms) on PGlite. */
export async function checkBadInput(ctx: RunContext, count = 10_000): Promise<void> {
  const store = await makeStore("pglite");
  try {
    const fixtures = await seedFixtures(store, 10);
    const before = await withStore(store, (deps) => dataFingerprint(deps.db));
    const server = await startServer({
      ...store.env,
      LOG_LEVEL: "info",
      RATE_LIMIT_ANON_PER_MINUTE: "100000000",
      RATE_LIMIT_TOKEN_PER_MINUTE: "100000000",
      RATE_LIMIT_OAUTH_PER_MINUTE: "100000000",
    });
    let exit: Deno.CommandStatus | undefined;
    try {
      const probes = hostileRequests(20261121, count, fixtures);
      const started = performance.now();
      const statuses = await pool(probes, 6, (p) => send(server.url, p));
      const port = Number(new URL(server.url).port);
      const raw = await pool(RAW_REQUESTS, 2, (r) => sendRaw(port, r));
      const seconds = (performance.now() - started) / 1000;
      const health = await fetch(`${server.url}/readyz`);
      await health.body?.cancel();
      const search = await fetch(
        `${server.url}/api/v1/public/wikis/${fixtures.publicWiki}/search?q=restart`,
      );
      const found = (await search.json()).results?.length ?? 0;
      exit = await server.stop("SIGTERM");

      const failures = probes.map((p, i) => ({ p, s: statuses[i]! }))
        .filter(({ s }) => s === "internal" || /^5\d\d$/.test(s) || s.startsWith("429 without"));
      const rawFailures = raw.filter((s) => /^5\d\d$/.test(s));
      const examples = failures.slice(0, 5).map(({ p, s }) =>
        `${s} ${p.kind} ${p.method} ${p.path.slice(0, 120)}`
      );
      ctx.verdict({
        name: `bad input: ${
          probes.length + raw.length
        } hostile requests, no 5xx, every 429 with Retry-After`,
        ok: failures.length === 0 && rawFailures.length === 0,
        detail: `${failures.length + rawFailures.length} failures\n${examples.join("\n")}`,
      });
      const after = await withStore(store, (deps) => dataFingerprint(deps.db));
      const output = server.output();
      const unhandled = output.split("\n").filter((l) => l.includes('"unhandled error"')).length;
      ctx.verdict({
        name: "bad input: the server stays up, no data changed, no token or crash in the log",
        ok: health.status === 200 && found > 0 && exit.code === 0 && before === after &&
          !output.includes(fixtures.token) && unhandled === 0,
        detail: `readyz ${health.status}, search found ${found}, exit ${exit.code}, ` +
          `data ${before === after ? "unchanged" : "CHANGED"}, token in log ` +
          `${output.includes(fixtures.token)}, unhandled errors ${unhandled}`,
      });
      const byKind = new Map<string, string[]>();
      probes.forEach((p, i) => byKind.set(p.kind, [...byKind.get(p.kind) ?? [], statuses[i]!]));
      addFigures(
        ctx,
        "Bad input",
        `- ${probes.length} generated requests (seed 20261121) and ${raw.length} malformed raw ` +
          `HTTP requests in ${seconds.toFixed(0)} s on PGlite, rate limits raised out of the way.`,
        `- By status: ${tally(statuses)}.`,
        `- Raw HTTP (answered by Deno.serve itself, or closed): ${tally(raw)}.`,
        ...[...byKind].sort().map(([kind, s]) => `  - \`${kind}\` (${s.length}): ${tally(s)}`),
        `- After: \`/readyz\` ${health.status}, search still finds ${found} pages, SIGTERM exit ` +
          `code ${exit.code}, data fingerprint ${before === after ? "unchanged" : "CHANGED"}, ` +
          `${unhandled} unhandled errors and no token in ${output.split("\n").length} log lines.`,
      );
    } finally {
      if (!exit) await server.stop("SIGKILL");
    }
  } finally {
    await store.dispose();
  }
}
