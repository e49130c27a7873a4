import assert from "node:assert/strict";
import { openPostgres } from "../src/db/postgres.ts";
import type { Db } from "../src/db/db.ts";
import { migrate } from "../src/db/migrate.ts";
import { upsertGitSource } from "../src/sync/store.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { startGitServer } from "./git_server.ts";
import { DATABASE_URL } from "./helpers.ts";
import {
  freePort,
  type ServerProcess,
  startServerProcess,
  waitUntilReady,
} from "./scale_helpers.ts";

/** A database of its own on the test PostgreSQL, dropped by `drop`. */
async function scratchDatabase(): Promise<{ url: string; db: Db; drop(): Promise<void> }> {
  const name = `wiki_sync_${crypto.randomUUID().replace(/-/g, "").slice(0, 12)}`;
  const admin = openPostgres(DATABASE_URL!, { max: 1 });
  await admin.exec(`CREATE DATABASE ${name}`);
  const url = new URL(DATABASE_URL!);
  url.pathname = `/${name}`;
  const db = openPostgres(url.toString(), { max: 2 });
  await migrate(db);
  return {
    url: url.toString(),
    db,
    async drop() {
      await db.close();
      await admin.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.close();
    },
  };
}

function serverEnv(url: string, gitHost: string, extra: Record<string, string> = {}) {
  return {
    DATABASE_URL: url,
    DATABASE_POOL_SIZE: "3",
    SEED_DOCS: "false",
    EMBEDDER: "offline",
    LLM_MODEL: "",
    LOG_LEVEL: "info",
    SYNC_ALLOW_HOSTS: gitHost,
    SYNC_POLL_SECONDS: "0.2",
    ...extra,
  };
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function logged(servers: ServerProcess[], message: string): Record<string, unknown>[] {
  return servers.flatMap((s) =>
    s.logs.filter((l) => l.startsWith("{")).map((l) => JSON.parse(l)).filter((e) =>
      e.message === message
    )
  );
}

const SPACES = ["alpha", "beta", "gamma"];

Deno.test({
  name: "three server processes on one PostgreSQL run each scheduled sync exactly once",
  ignore: !DATABASE_URL,
  async fn() {
    await using git = await startGitServer();
    const scratch = await scratchDatabase();
    const { db } = scratch;
    const servers: ServerProcess[] = [];
    try {
      for (const id of SPACES) {
        const repo = await git.createRepo(id);
        await repo.write("Home.md", `# Home of ${id}\n`);
        await repo.write("Guide.md", `# Guide of ${id}\n`);
        await repo.commit("first");
        await createWiki(db, { id, visibility: "private" });
        await upsertGitSource(db, id, {
          url: git.url(id),
          branch: "main",
          folder: "",
          tokenSealed: null,
          keepToken: false,
          intervalMinutes: 60,
          webhookSecret: "whsec_test",
        });
      }
      const env = serverEnv(scratch.url, git.host);
      servers.push(...[0, 1, 2].map(() => startServerProcess(freePort(), env)));
      await Promise.all(servers.map((s) => waitUntilReady(s)));
      const done = async (n: number) =>
        (await db<{ n: number }>`SELECT count(*)::int AS n FROM sync_jobs WHERE state = 'done'`)[0]!
          .n >= n;
      await until("the first scheduled syncs", () => done(SPACES.length));
      // Let every process poll a few more times: nothing more may run.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const jobs = await db<{ wiki_id: string; state: string; attempts: number }>`
        SELECT wiki_id, state, attempts FROM sync_jobs ORDER BY wiki_id`;
      assert.deepEqual(
        jobs.map((j) => [j.wiki_id, j.state, j.attempts]),
        SPACES.toSorted().map((id) => [id, "done", 1]),
      );
      const revisions = await db<{ n: number }>`SELECT count(*)::int AS n FROM page_revisions`;
      assert.equal(revisions[0]!.n, SPACES.length * 2, "each page written once");
      assert.equal(logged(servers, "space synced").length, SPACES.length);

      // The next due time: once more each, still by one process each.
      await db`UPDATE git_sources SET next_sync_at = now()`;
      await until("the second scheduled syncs", () => done(SPACES.length * 2));
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const counts = await db<{ wiki_id: string; n: number }>`
        SELECT wiki_id, count(*)::int AS n FROM sync_jobs GROUP BY wiki_id ORDER BY wiki_id`;
      assert.deepEqual(counts.map((c) => c.n), [2, 2, 2]);
      const unchanged = await db<{ n: number }>`
        SELECT count(*)::int AS n FROM sync_jobs WHERE result->>'status' = 'unchanged'`;
      assert.equal(unchanged[0]!.n, SPACES.length, "the same commit again wrote nothing");
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
      await scratch.drop();
    }
  },
});

Deno.test({
  name: "SIGKILL of the process holding a sync's lease: another process finishes the sync",
  ignore: !DATABASE_URL,
  async fn() {
    await using git = await startGitServer();
    const scratch = await scratchDatabase();
    const { db } = scratch;
    const servers: ServerProcess[] = [];
    let first: Deno.ChildProcess | undefined;
    try {
      const repo = await git.createRepo("delta");
      await repo.write("Home.md", "# Home\n");
      await repo.commit("first");
      await createWiki(db, { id: "delta", visibility: "private" });
      await upsertGitSource(db, "delta", {
        url: git.url("delta"),
        branch: "main",
        folder: "",
        tokenSealed: null,
        keepToken: false,
        intervalMinutes: 60,
        webhookSecret: "whsec_test",
      });
      // The first process takes the job and hangs on a slow repository.
      git.delayMs = 60_000;
      const env = serverEnv(scratch.url, git.host, { SYNC_LEASE_SECONDS: "2" });
      first = new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "main.ts"],
        cwd: new URL("../", import.meta.url),
        env: { ...env, PORT: String(freePort()), NO_COLOR: "1" },
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).spawn();
      await until(
        "the first process to claim the job",
        async () => (await db`SELECT 1 FROM sync_jobs WHERE state = 'running'`).length === 1,
      );
      const [claimed] = await db<{ lease_owner: string }>`SELECT lease_owner FROM sync_jobs`;
      // Its lease is renewed while it lives.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      const [held] = await db<{ lease_owner: string; live: boolean }>`
        SELECT lease_owner, lease_until > now() AS live FROM sync_jobs`;
      assert.equal(held!.lease_owner, claimed!.lease_owner);
      assert.equal(held!.live, true, "the lease is renewed while the sync runs");

      first.kill("SIGKILL");
      await first.status;
      git.delayMs = 0;
      const second = startServerProcess(freePort(), env);
      servers.push(second);
      await until(
        "another process to finish the job",
        async () => (await db`SELECT 1 FROM sync_jobs WHERE state = 'done'`).length === 1,
      );
      const [job] = await db<{ lease_owner: string; attempts: number; state: string }>`
        SELECT lease_owner, attempts, state FROM sync_jobs`;
      assert.notEqual(job!.lease_owner, claimed!.lease_owner);
      assert.equal(job!.attempts, 2);
      assert.equal((await db`SELECT 1 FROM sync_jobs`).length, 1, "the same job, not a new one");
      assert.equal((await db`SELECT 1 FROM pages WHERE wiki_id = 'delta'`).length, 1);
    } finally {
      try {
        first?.kill("SIGKILL");
        await first?.status;
      } catch { /* killed above */ }
      await Promise.all(servers.map((s) => s.stop()));
      await scratch.drop();
    }
  },
});
