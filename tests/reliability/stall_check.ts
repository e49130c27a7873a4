/**
 * What one request can cost everyone else (issue 26, "the server must not stall"), measured on
 * a real server process: while a heavy request runs, `/healthz` is asked every 25 ms and the
 * server's RSS sampled every 100 ms.
 *
 *   deno run -A tests/reliability/stall_check.ts [--store pglite|postgres] [--port 8101]
 *     [--only export|sync|links] [--cpu-prof <dir>]
 *
 * - export: an anonymous export of a public wiki holding files up to its quota
 *   (`SPACE_FILES_MB`, 100 MB by default: 20 files of 5 MB);
 * - sync: a sync of a repository whose pack (a few MB) inflates to 400 MB (one file);
 * - links: a 1 MB page of 100,000 repeated links (stored before the links cap) and a page at
 *   the cap (5,000 links in 1 MB), each viewed anonymously.
 *
 * PostgreSQL comes from `DATABASE_URL`. Prints one line of figures per measurement; the
 * figures in docs/security.md ("Limits") come from it.
 */
import { parseArgs } from "node:util";
import { saveAttachment } from "../../src/attachments/attachments.ts";
import { createAccount } from "../../src/accounts/accounts.ts";
import { createToken } from "../../src/auth/tokens.ts";
import { connectGitSource } from "../../src/sync/connect_source.ts";
import { writePage } from "../../src/pages/write_page.ts";
import { createWiki } from "../../src/wikis/wikis.ts";
import { startGitServer } from "../git_server.ts";
import { makeStore, percentile, rssMiB, sleep, startServer, withStore } from "./harness.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    store: { type: "string", default: "pglite" },
    port: { type: "string", default: "8101" },
    only: { type: "string" },
    "cpu-prof": { type: "string" },
  },
});
const kind = values.store === "postgres" ? "postgres" : "pglite";
const port = Number(values.port);
/** `--cpu-prof <dir>`: the server writes a V8 CPU profile there when it stops. */
const denoFlags = values["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${values["cpu-prof"]}`] : [];

/** Runs `work` against the server while watching `/healthz` and the process's RSS. */
async function watched(url: string, pid: number, work: () => Promise<string>) {
  let done = false;
  const health: number[] = [];
  const rss: number[] = [await rssMiB(pid)];
  const probe = (async () => {
    while (!done) {
      const t = performance.now();
      const res = await fetch(`${url}/healthz`);
      await res.body?.cancel();
      health.push(performance.now() - t);
      await sleep(25);
    }
  })();
  const sampler = (async () => {
    while (!done) {
      rss.push(await rssMiB(pid));
      await sleep(100);
    }
  })();
  const started = performance.now();
  const cpuBefore = await cpuMs(pid);
  let outcome: string;
  try {
    outcome = await work();
  } finally {
    done = true;
    await Promise.all([probe, sampler]);
  }
  return {
    outcome,
    seconds: ((performance.now() - started) / 1000).toFixed(2),
    // The server's own CPU time over the request: on a busy machine, wall time is mostly
    // waiting for a core; this is what the request cost.
    serverCpuMs: (await cpuMs(pid)) - cpuBefore,
    healthMax: Math.round(Math.max(...health)),
    healthP99: Math.round(percentile(health, 99)),
    probes: health.length,
    rssStart: rss[0]!,
    rssPeak: Math.max(...rss),
    rssGrowth: Math.max(...rss) - rss[0]!,
  };
}

/**
 * The same probe for 3 s with nothing else running: `/healthz`'s own latency on this machine at
 * this load (the figures above it are only as good as this floor is low).
 */
async function idleFloor(server: { url: string; pid: number }, what: string): Promise<void> {
  const figures = await watched(server.url, server.pid, async () => {
    await sleep(3000);
    return "idle";
  });
  console.log(`idle before ${what} (${kind}): ${JSON.stringify(figures)}`);
}

/** A process's user and system CPU time so far, in ms (`/proc/<pid>/stat`, 100 ticks a second). */
async function cpuMs(pid: number): Promise<number> {
  const fields = (await Deno.readTextFile(`/proc/${pid}/stat`)).split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** 5 MB files that do not compress: a PNG signature, then noise. */
function noisyPng(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let at = 0; at < size; at += 65536) {
    crypto.getRandomValues(bytes.subarray(at, Math.min(size, at + 65536)));
  }
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return bytes;
}

async function measureExport(): Promise<void> {
  const store = await makeStore(kind, Deno.env.get("DATABASE_URL"));
  try {
    await withStore(store, async (deps) => {
      await createWiki(deps.db, { id: "big", visibility: "public" });
      await writePage(deps, { wikiId: "big", path: "Home", markdown: "# Home\n" }, {
        source: "test",
      });
      const count = Math.floor(deps.config.files.maxBytes / (5 * 1024 * 1024));
      for (let i = 0; i < count; i++) {
        await saveAttachment(deps, {
          wikiId: "big",
          fileName: `f${i}.png`,
          bytes: noisyPng(5 * 1024 * 1024),
          accountId: null,
        });
      }
    });
    const server = await startServer(store.env, { port, denoFlags });
    try {
      await idleFloor(server, "export");
      const figures = await watched(server.url, server.pid, async () => {
        const res = await fetch(`${server.url}/w/big/-/export`);
        let bytes = 0;
        for await (const piece of res.body!) bytes += piece.length;
        return `${res.status}, ${(bytes / 1024 / 1024).toFixed(1)} MB`;
      });
      console.log(`export (${kind}): ${JSON.stringify(figures)}`);
    } finally {
      await server.stop();
    }
  } finally {
    await store.dispose();
  }
}

async function measureSync(): Promise<void> {
  await using git = await startGitServer();
  const repo = await git.createRepo("huge");
  await repo.write("Home.md", "# Home\n");
  // 400 MB of a 4 KB random block repeated: deflate finds each repeat, so the pack is small.
  const block = crypto.getRandomValues(new Uint8Array(4096));
  const file = await Deno.open(`${repo.dir}/video.bin`, { write: true, create: true });
  for (let i = 0; i < 100 * 1024; i++) await file.write(block);
  file.close();
  await repo.commit("a large file");
  const pack = await repo.git("count-objects", "-vH");
  const store = await makeStore(kind, Deno.env.get("DATABASE_URL"));
  try {
    const token = await withStore(
      { ...store, env: { ...store.env, SYNC_ALLOW_HOSTS: git.host } },
      async (deps) => {
        const ana = await createAccount(deps.db, { email: "ana@example.com" });
        await createWiki(deps.db, {
          id: "handbook",
          visibility: "private",
          ownerAccountId: ana.id,
        });
        await connectGitSource(deps, "handbook", {
          url: git.url("huge"),
          branch: "main",
          folder: "",
        });
        return (await createToken(deps.db, { accountId: ana.id, kind: "account", name: "a" }))
          .token;
      },
    );
    const server = await startServer({
      ...store.env,
      SYNC_ALLOW_HOSTS: git.host,
      SYNC_SCHEDULER: "false",
    }, { port, denoFlags });
    try {
      const figures = await watched(server.url, server.pid, async () => {
        const res = await fetch(`${server.url}/api/v1/spaces/handbook/sync`, {
          method: "POST",
          headers: { Authorization: `Bearer ${token}` },
        });
        const job = await res.json();
        return `${res.status} ${job.state}: ${job.error}`;
      });
      console.log(
        `sync (${kind}; repository ${pack.split("\n").find((l) => l.startsWith("size-pack"))}): ${
          JSON.stringify(figures)
        }`,
      );
    } finally {
      await server.stop();
    }
  } finally {
    await store.dispose();
  }
}

async function measureLinks(): Promise<void> {
  const store = await makeStore(kind, Deno.env.get("DATABASE_URL"));
  try {
    await withStore(store, async (deps) => {
      await createWiki(deps.db, { id: "links", visibility: "public" });
      const by = { source: "test" };
      await writePage(deps, { wikiId: "links", path: "Old", markdown: "# Old\n" }, by);
      // Stored as it could be before the cap: written straight to the table.
      const repeated = "# Old\n\n" + "[a](q.md) ".repeat(100_000);
      await deps
        .db`UPDATE pages SET markdown = ${repeated} WHERE wiki_id = 'links' AND path = 'Old'`;
      const atCap = "# Cap\n\n" + "[a](q.md) ".repeat(4_999) + "\n\n" +
        "Plain words of text. ".repeat(45_000);
      await writePage(deps, { wikiId: "links", path: "Cap", markdown: atCap }, by);
      await writePage(deps, { wikiId: "links", path: "Warm", markdown: "# Warm\n\n[a](q.md)" }, by);
    });
    const server = await startServer(store.env, { port, denoFlags });
    try {
      // A first view compiles the rendering code: not what a page costs.
      await (await fetch(`${server.url}/w/links/Warm`)).text();
      await idleFloor(server, "views");
      for (const path of ["Old", "Cap", "Old", "Cap"]) {
        const figures = await watched(server.url, server.pid, async () => {
          const res = await fetch(`${server.url}/w/links/${path}`);
          const text = await res.text();
          return `${res.status}, ${(text.length / 1024).toFixed(0)} KB`;
        });
        console.log(`view ${path} (${kind}): ${JSON.stringify(figures)}`);
      }
    } finally {
      await server.stop();
    }
  } finally {
    await store.dispose();
  }
}

const only = values.only;
if (!only || only === "export") await measureExport();
if (!only || only === "sync") await measureSync();
if (!only || only === "links") await measureLinks();
