/**
 * A network partition between the server and PostgreSQL: the server reaches the database
 * through a TCP proxy that the check cuts (every connection closed mid-stream, new ones refused)
 * and restores, several times under load. Unlike stopping PostgreSQL, this touches no one
 * else's connections, and it closes sockets at arbitrary points of the protocol, which is how
 * postgres.js's write-after-close crash was found (see `src/db/postgres.ts`).
 */
import { addFigures, type RunContext, tally } from "./check.ts";
import { freePort, makeStore, seedFixtures, sleep, startServer } from "./harness.ts";

/** A TCP proxy to `target` on loopback that can be cut and restored. */
function tcpProxy(target: { hostname: string; port: number }) {
  const port = freePort();
  let listener: Deno.Listener | null = null;
  const open = new Set<Deno.Conn>();
  const close = (conn: Deno.Conn) => {
    try {
      conn.close();
    } catch {
      // already closed
    }
  };
  const accept = async (l: Deno.Listener) => {
    for await (const client of l) {
      open.add(client);
      Deno.connect(target).then((upstream) => {
        open.add(upstream);
        const done = () => {
          close(client);
          close(upstream);
          open.delete(client);
          open.delete(upstream);
        };
        client.readable.pipeTo(upstream.writable).catch(() => {}).finally(done);
        upstream.readable.pipeTo(client.writable).catch(() => {}).finally(done);
      }, () => close(client));
    }
  };
  const restore = () => {
    if (listener) return;
    listener = Deno.listen({ hostname: "127.0.0.1", port });
    accept(listener).catch(() => {});
  };
  restore();
  return {
    port,
    restore,
    cut() {
      try {
        listener?.close();
      } catch {
        // closed
      }
      listener = null;
      for (const conn of open) close(conn);
      open.clear();
    },
  };
}

type Sample = { kind: string; started: number; ended: number; status: string };

/** Cuts and restores the server's connections to PostgreSQL `rounds` times under load. */
export async function checkPartition(ctx: RunContext): Promise<void> {
  const names = [
    "partition: connections to PostgreSQL cut under load: the process survives, 503s, never 500",
    "partition: service resumes after each cut, no acknowledged write lost",
  ];
  if (!ctx.databaseUrl) {
    for (const name of names) ctx.verdict({ name, ok: false, detail: "no PostgreSQL" });
    return;
  }
  const rounds = ctx.mode === "full" ? 6 : 3;
  const cutSeconds = 3;
  const store = await makeStore("postgres", ctx.databaseUrl);
  const direct = new URL(store.env.DATABASE_URL!);
  const proxy = tcpProxy({ hostname: direct.hostname, port: Number(direct.port || 5432) });
  try {
    const fixtures = await seedFixtures(store, 10);
    const viaProxy = new URL(direct);
    viaProxy.port = String(proxy.port);
    const server = await startServer({
      DATABASE_URL: viaProxy.toString(),
      RATE_LIMIT_ANON_PER_MINUTE: "100000000",
      RATE_LIMIT_TOKEN_PER_MINUTE: "100000000",
    });
    const t0 = performance.now();
    const now = () => (performance.now() - t0) / 1000;
    const samples: Sample[] = [];
    const acknowledged = new Map<string, string>();
    const auth = { Authorization: `Bearer ${fixtures.token}` };
    let running = true;
    let n = 0;
    const mcpSearch = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "search", arguments: { space: fixtures.space, query: "restart" } },
    });
    const calls: Record<string, () => Promise<Response>> = {
      write: () => {
        const path = `Partition/W${n++}`;
        const markdown = `# W${n}\nNumber ${n}.`;
        return fetch(
          `${server.url}/api/v1/spaces/${fixtures.space}/pages/${encodeURIComponent(path)}`,
          {
            method: "PUT",
            headers: { ...auth, "Content-Type": "text/markdown" },
            body: markdown,
          },
        ).then((res) => {
          if (res.ok) acknowledged.set(path, markdown);
          return res;
        });
      },
      search: () =>
        fetch(`${server.url}/api/v1/public/wikis/${fixtures.publicWiki}/search?q=restart`),
      mcp: () =>
        fetch(`${server.url}/mcp/`, {
          method: "POST",
          headers: {
            ...auth,
            "Content-Type": "application/json",
            Accept: "application/json, text/event-stream",
          },
          body: mcpSearch,
        }),
    };
    const loop = async (kind: string) => {
      while (running) {
        const started = now();
        let status: string;
        try {
          const res = await calls[kind]!();
          const text = await res.text();
          status = res.status === 200 && text.includes('"isError":true')
            ? "tool error"
            : String(res.status);
        } catch (error) {
          status = `network: ${(error as Error).name}`;
        }
        samples.push({ kind, started, ended: now(), status });
        await sleep(50);
      }
    };
    const load = Promise.all(["write", "search", "mcp", "write", "search"].map(loop));
    const restored: number[] = [];
    try {
      for (let i = 0; i < rounds; i++) {
        await sleep(1500);
        proxy.cut();
        await sleep(cutSeconds * 1000);
        proxy.restore();
        restored.push(now());
        await sleep(1500);
      }
      await sleep(2000);
    } finally {
      proxy.restore();
      running = false;
      await load;
    }
    const exit = await server.stop();
    const alive = exit.code === 0;
    const bad = samples.filter((s) =>
      /^5/.test(s.status) && s.status !== "503" || /network/.test(s.status)
    );
    const crashes = server.output().split("\n").filter((l) =>
      l.includes('"unhandled error"') || l.includes("Uncaught")
    );
    ctx.verdict({
      name: names[0]!,
      ok: alive && bad.length === 0 && crashes.length === 0,
      detail: `exit ${exit.code}; statuses ${tally(samples.map((s) => s.status))}\n` +
        crashes.slice(0, 3).map((l) => l.slice(0, 800)).join("\n"),
    });
    // After each restore, the first success of any kind, in seconds.
    const resumed = restored.map((at) => {
      const first = samples.find((s) => s.started >= at && /^2/.test(s.status));
      return first ? first.ended - at : Infinity;
    });
    let lost = 0;
    const lostExamples: string[] = [];
    const again = await startServer({
      DATABASE_URL: direct.toString(),
      RATE_LIMIT_TOKEN_PER_MINUTE: "100000000",
    });
    try {
      for (const [path, markdown] of acknowledged) {
        const res = await fetch(
          `${again.url}/api/v1/spaces/${fixtures.space}/pages/${encodeURIComponent(path)}`,
          { headers: { ...auth, Accept: "text/markdown" } },
        );
        if (!res.ok || await res.text() !== markdown) {
          lost++;
          if (lost <= 3) lostExamples.push(`${path}: ${res.status}`);
        }
      }
    } finally {
      await again.stop();
    }
    ctx.verdict({
      name: names[1]!,
      ok: resumed.every((s) => s <= 30) && lost === 0 && acknowledged.size > 0,
      detail: `resumed after ${resumed.map((s) => s.toFixed(2)).join(", ")} s; ` +
        `${acknowledged.size} writes acknowledged, ${lost} lost ${lostExamples.join("; ")}`,
    });
    const dropped = (server.output().match(/postgres\.js error dropped/g) ?? []).length;
    addFigures(
      ctx,
      "Connections cut (network partition)",
      `- ${rounds} cuts of ${cutSeconds} s each through a TCP proxy, under writes, searches and ` +
        `MCP tool calls (5 loops): ${tally(samples.map((s) => s.status))}.`,
      `- Service resumed ${resumed.map((s) => s.toFixed(2)).join(", ")} s after each restore; ` +
        `${acknowledged.size} writes acknowledged, ${lost} lost; the process exited ` +
        `${exit.code} on SIGTERM afterwards; postgres.js write-after-close errors survived: ` +
        `${dropped}.`,
    );
  } finally {
    proxy.cut();
    await store.dispose();
  }
}
