/**
 * Pieces of the scale-out test: real server processes, a round-robin reverse proxy in front of
 * them that records which process served each request, and a cookie-keeping browser that
 * talks HTTP to the proxy.
 */

const ROOT = new URL("../", import.meta.url);

/** A `deno run main.ts` child process and the JSON log lines it wrote on stderr. */
export type ServerProcess = {
  origin: string;
  logs: string[];
  /** Resolves when the process has exited (on its own, or after `stop`). */
  exited: Promise<Deno.CommandStatus>;
  stop(): Promise<void>;
};

/** A free TCP port on loopback (taken, then released for the child to listen on). */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** Starts the server as `deno task start` does, on `port`, with `env` over this environment. */
export function startServerProcess(port: number, env: Record<string, string>): ServerProcess {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--frozen",
      "--lock=deno.lock",
      "--allow-net",
      "--allow-env",
      "--allow-read",
      "--allow-write",
      "--allow-sys",
      "main.ts",
    ],
    cwd: ROOT,
    env: { ...env, PORT: String(port), NO_COLOR: "1" },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const logs: string[] = [];
  const drained = (async () => {
    let rest = "";
    for await (const text of child.stderr.pipeThrough(new TextDecoderStream())) {
      const lines = (rest + text).split("\n");
      rest = lines.pop()!;
      logs.push(...lines.filter(Boolean));
    }
    if (rest) logs.push(rest);
  })();
  const exited = child.status.then(async (status) => {
    await drained;
    return status;
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    logs,
    exited,
    async stop() {
      try {
        child.kill("SIGTERM"); // drains requests and closes the pool, as in production
      } catch {
        // already exited
      }
      let timer: ReturnType<typeof setTimeout> | undefined;
      const forced = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          try {
            child.kill("SIGKILL");
          } catch {
            // exited meanwhile
          }
          resolve();
        }, 10_000);
      });
      await Promise.race([exited, forced]);
      clearTimeout(timer);
      await exited;
    },
  };
}

/** Polls `/readyz` until the process answers 200; fails if it exits or never gets ready. */
export async function waitUntilReady(server: ServerProcess, timeoutMs = 45_000): Promise<void> {
  let exited = false;
  server.exited.then(() => exited = true);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exited) throw new Error(`${server.origin} exited:\n${server.logs.join("\n")}`);
    try {
      const res = await fetch(`${server.origin}/readyz`);
      await res.body?.cancel();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${server.origin} not ready:\n${server.logs.join("\n")}`);
}

/** One request as the proxy saw it. */
export type Served = { method: string; path: string; backend: number; status: number };

/** Headers of one connection, not of the message (RFC 9110 §7.6.1): never forwarded. */
const HOP_BY_HOP = [
  "connection",
  "keep-alive",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
];

/** The response header in which the proxy names the process (0, 1, 2…) that answered. */
export const SERVED_BY = "x-served-by";

/**
 * A reverse proxy on loopback that sends each request to the next backend in turn, streaming
 * both bodies, like nginx's default upstream balancing. It overwrites `X-Forwarded-For` with
 * the address it saw (a client cannot plant one), records every request, and names the
 * backend in `X-Served-By`. Unreachable backends give 502, which the record keeps.
 */
export function roundRobinProxy(backends: string[]) {
  const client = Deno.createHttpClient({});
  const served: Served[] = [];
  let turn = 0;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request, info) => {
      const backend = turn++ % backends.length;
      const url = new URL(request.url);
      const headers = new Headers(request.headers);
      for (const name of HOP_BY_HOP) headers.delete(name);
      headers.set("x-forwarded-for", info.remoteAddr.hostname);
      headers.set("x-forwarded-host", url.host);
      headers.set("x-forwarded-proto", "http");
      const record = { method: request.method, path: url.pathname, backend, status: 502 };
      served.push(record);
      let response: Response;
      try {
        response = await fetch(new URL(url.pathname + url.search, backends[backend]), {
          method: request.method,
          headers,
          body: request.body,
          redirect: "manual",
          client,
        });
      } catch (error) {
        return new Response(`Bad gateway: ${error}`, { status: 502 });
      }
      record.status = response.status;
      const out = new Headers(response.headers);
      for (const name of HOP_BY_HOP) out.delete(name);
      out.set(SERVED_BY, String(backend));
      return new Response(response.body, { status: response.status, headers: out });
    },
  );
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    served,
    async close() {
      await server.shutdown();
      client.close();
    },
  };
}

/**
 * A browser in miniature over real HTTP: keeps cookies, never follows redirects, and sends
 * `Origin` on posts as browsers do (the CSRF check compares it with `BASE_URL`).
 */
export function httpBrowser(origin: string) {
  const jar = new Map<string, string>();
  async function send(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (jar.size > 0) {
      headers.set("cookie", [...jar].map(([name, value]) => `${name}=${value}`).join("; "));
    }
    const res = await fetch(new URL(path, origin), { ...init, headers, redirect: "manual" });
    for (const line of res.headers.getSetCookie()) {
      const [name, value] = line.split(";")[0]!.split("=") as [string, string];
      if (value === "" || /Max-Age=0\b/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
    return res;
  }
  return {
    get: (path: string) => send(path),
    post: (path: string, fields: Record<string, string> | [string, string][]) =>
      send(path, { method: "POST", body: new URLSearchParams(fields), headers: { origin } }),
  };
}

/** The value of a page's first hidden `_csrf` field. */
export function csrfOf(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no CSRF field in:\n${html.slice(0, 500)}`);
  return match[1]!;
}
