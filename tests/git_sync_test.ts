import assert from "node:assert/strict";
import { createAccount } from "../src/accounts/accounts.ts";
import { createToken } from "../src/auth/tokens.ts";
import type { Db } from "../src/db/db.ts";
import { hmacHex } from "../src/sync/webhook_signature.ts";
import { checkRepositoryUrl } from "../src/sync/git_http.ts";
import { SYNC_LIMITS } from "../src/sync/fetch_tree.ts";
import type { AppError } from "../src/errors.ts";
import { syncSpace } from "../src/sync/run_sync.ts";
import { runSyncJob } from "../src/sync/sync_jobs.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { startGitServer } from "./git_server.ts";
import { freshDb, migratedDataDir, testApp, testConfig } from "./helpers.ts";
import { openDeps } from "../src/server.ts";
import { createLog } from "../src/lib/log.ts";
import { connectGitSource, connectSchema } from "../src/sync/connect_source.ts";
import { html, person } from "./space_helpers.ts";
import { callOk, mcpClient } from "./mcp_helpers.ts";

const KEY = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));

async function world(db: Db, env: Record<string, string>) {
  const { app, deps } = testApp(db, { SYNC_SCHEDULER: "false", ...env });
  const ana = await createAccount(db, { email: "ana@example.com" });
  await createWiki(db, { id: "handbook", visibility: "private", ownerAccountId: ana.id });
  const token = (await createToken(db, { accountId: ana.id, kind: "account", name: "a" })).token;
  const call = (method: string, path: string, body?: unknown) =>
    app.request(`/api/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return { app, deps, call, token };
}

async function revisionsOf(db: Db, path: string) {
  return await db<{ revision: number; action: string; source_commit: string | null }>`
    SELECT r.revision, r.action, r.source_commit, r.source_author
    FROM page_revisions r JOIN pages p ON p.id = r.page_id
    WHERE p.wiki_id = 'handbook' AND p.path = ${path} ORDER BY r.revision`;
}

Deno.test("a space synced from a real Git server: connect, sync, push, sync again, rename, delete", async () => {
  await using git = await startGitServer();
  await using db = await freshDb();
  const { call } = await world(db, { SYNC_ALLOW_HOSTS: git.host });
  const repo = await git.createRepo("handbook");
  await repo.write("docs/Intro.md", "# Intro\n\nStart with [[Setup]].\n");
  await repo.write("docs/Setup.md", "# Setup\n\nInstall the tools.\n");
  await repo.write("docs/Old.md", "# Old\n\nTo be removed.\n");
  await repo.write("README.md", "# Outside the folder\n");
  await repo.write("docs/logo.png", "not markdown");
  const first = await repo.commit("first pages");

  const connected = await call("PUT", "/spaces/handbook/sync", {
    url: git.url("handbook"),
    branch: "main",
    folder: "docs",
  });
  assert.equal(connected.status, 201);
  const status = await connected.json();
  assert.match(status.webhook_secret, /^whsec_/);
  assert.equal(status.has_token, false);
  assert.equal(status.last_commit, null);

  const synced = await (await call("POST", "/spaces/handbook/sync")).json();
  assert.equal(synced.state, "done", JSON.stringify(synced));
  assert.equal(synced.result.commit, first);
  assert.equal(synced.result.added, 3);
  const shown = await (await call("GET", "/spaces/handbook/sync")).json();
  assert.equal(shown.last_commit, first);
  assert.ok(shown.last_synced_at);
  assert.equal(shown.webhook_secret, undefined, "the secret is shown once");
  assert.equal((await call("GET", "/spaces/handbook/pages/README")).status, 404);

  // The same commit again writes nothing, and fetches no pack.
  const packs = () => git.requests.filter((r) => r.endsWith("/git-upload-pack")).length;
  const fetched = packs();
  const again = await (await call("POST", "/spaces/handbook/sync")).json();
  assert.equal(again.result.status, "unchanged");
  assert.equal(packs(), fetched, "only the refs were asked for");
  assert.equal((await revisionsOf(db, "Intro")).length, 1);

  // A pushed change: one new revision carrying the commit and its author.
  await repo.write("docs/Intro.md", "# Intro\n\nStart with [[Setup]]. Then read on.\n");
  const second = await repo.commit("intro grows");
  const changed = await (await call("POST", "/spaces/handbook/sync")).json();
  assert.equal(changed.result.updated, 1);
  assert.equal(changed.result.added, 0);
  const intro = await revisionsOf(db, "Intro");
  assert.equal(intro.length, 2);
  assert.equal(intro[1]!.source_commit, second);
  assert.equal((intro[1] as Record<string, unknown>).source_author, "Ada Writer <ada@example.com>");
  assert.equal((await revisionsOf(db, "Setup")).length, 1, "an unchanged page is not rewritten");

  // Rename (same blob at a new path) and delete.
  await Deno.mkdir(`${repo.dir}/docs/Guides`);
  await repo.git("mv", "docs/Setup.md", "docs/Guides/Install.md");
  await repo.git("rm", "-q", "docs/Old.md");
  const third = await repo.commit("move setup, drop old");
  const moved = await (await call("POST", "/spaces/handbook/sync")).json();
  assert.equal(moved.result.renamed, 1, JSON.stringify(moved));
  assert.equal(moved.result.deleted, 1);
  assert.equal((await call("GET", "/spaces/handbook/pages/Setup")).status, 404);
  assert.equal((await call("GET", "/spaces/handbook/pages/Old")).status, 404);
  const install = await revisionsOf(db, "Guides/Install");
  assert.deepEqual(install.map((r) => r.action), ["create", "rename"]);
  assert.equal(install[1]!.source_commit, third);
  const page = await (await call("GET", "/spaces/handbook/pages/Intro")).json();
  assert.match(page.markdown, /\[\[Guides\/Install\]\]/, "our rename rewrote the link to it");

  // Pages of a synced space change in the repository only.
  const edit = await call("PUT", "/spaces/handbook/pages/Intro", { markdown: "# Mine" });
  assert.equal(edit.status, 409);
  const problem = await edit.json();
  assert.equal(problem.code, "space_synced");
  assert.match(problem.detail, /synced from a Git repository/);
  assert.equal((await call("DELETE", "/spaces/handbook/pages/Intro")).status, 409);
});

Deno.test("a push webhook queues a sync; a wrong signature or secret is refused", async () => {
  await using git = await startGitServer();
  await using db = await freshDb();
  const { app, deps, call } = await world(db, { SYNC_ALLOW_HOSTS: git.host });
  const repo = await git.createRepo("hooks");
  await repo.write("Home.md", "# Home\n");
  const head = await repo.commit("home");
  const { webhook_secret: secret } = await (await call("PUT", "/spaces/handbook/sync", {
    url: git.url("hooks"),
  })).json();
  const hook = (headers: Record<string, string>, body: string) =>
    app.request("/api/v1/hooks/git/handbook", { method: "POST", headers, body });
  const push = JSON.stringify({ ref: "refs/heads/main", after: head });

  const wrong = await hook({ "X-Hub-Signature-256": `sha256=${"0".repeat(64)}` }, push);
  assert.equal(wrong.status, 401);
  assert.match((await wrong.json()).detail, /X-Hub-Signature-256 does not match/);
  const unsigned = await hook({}, push);
  assert.equal(unsigned.status, 401);
  const gitlabWrong = await hook({ "X-Gitlab-Token": "whsec_guess" }, push);
  assert.equal(gitlabWrong.status, 401);
  const giteaWrong = await hook({
    "X-Gitea-Signature": await hmacHex("other", new TextEncoder().encode(push)),
  }, push);
  assert.equal(giteaWrong.status, 401);
  assert.equal((await db`SELECT 1 FROM sync_jobs`).length, 0, "nothing queued by a bad hook");
  // An unknown space answers as a wrong signature does: the hook is no oracle (issue 26.12).
  const unknown = await app.request("/api/v1/hooks/git/nowhere", {
    method: "POST",
    headers: { "X-Hub-Signature-256": `sha256=${"0".repeat(64)}` },
    body: push,
  });
  assert.equal(unknown.status, 401);
  assert.deepEqual(
    { ...(await unknown.json()), request_id: null },
    {
      ...(await (await hook({ "X-Hub-Signature-256": `sha256=${"0".repeat(64)}` }, push)).json()),
      request_id: null,
    },
  );
  const guessed = await app.request("/api/v1/hooks/git/nowhere", {
    method: "POST",
    headers: { "X-Gitlab-Token": secret },
    body: push,
  });
  assert.equal(guessed.status, 401);

  const signature = `sha256=${await hmacHex(secret, new TextEncoder().encode(push))}`;
  const github = await hook({ "X-Hub-Signature-256": signature }, push);
  assert.equal(github.status, 202);
  const queued = await github.json();
  assert.equal(queued.queued, true);
  // The scheduler's step: claim the queued job and run it.
  const ran = await runSyncJob(deps, "worker-1");
  assert.equal(ran?.id, queued.job);
  assert.equal(ran?.reason, "webhook");
  assert.equal(ran?.state, "done");
  assert.equal((await call("GET", "/spaces/handbook/pages/Home")).status, 200);

  const gitlab = await hook({ "X-Gitlab-Token": secret }, push);
  assert.equal((await gitlab.json()).queued, true);
  const gitea = await hook({
    "X-Gitea-Signature": await hmacHex(secret, new TextEncoder().encode(push)),
  }, push);
  assert.equal(gitea.status, 202, "a second push while one is queued joins it");
  const other = JSON.stringify({ ref: "refs/heads/feature" });
  const ignored = await hook({ "X-Gitlab-Token": secret }, other);
  assert.deepEqual(await ignored.json(), { queued: false, job: null });
  assert.equal((await db`SELECT 1 FROM sync_jobs WHERE state = 'queued'`).length, 1);
});

Deno.test("a push webhook delivered while a sync runs leaves one follow-up job that syncs the pushed commit", async () => {
  await using git = await startGitServer();
  await using db = await freshDb();
  const { app, deps, call } = await world(db, { SYNC_ALLOW_HOSTS: git.host });
  const repo = await git.createRepo("busy");
  await repo.write("Home.md", "# Home\n");
  await repo.commit("home");
  const { webhook_secret: secret } = await (await call("PUT", "/spaces/handbook/sync", {
    url: git.url("busy"),
  })).json();
  const hook = async (after: string) =>
    await (await app.request("/api/v1/hooks/git/handbook", {
      method: "POST",
      headers: { "X-Gitlab-Token": secret },
      body: JSON.stringify({ ref: "refs/heads/main", after }),
    })).json();

  // A sync starts and hangs on a slow server.
  const first = await hook("");
  git.delayMs = 60_000;
  const running = runSyncJob(deps, "worker-1");
  for (let i = 0; (await db`SELECT 1 FROM sync_jobs WHERE state = 'running'`).length === 0; i++) {
    assert.ok(i < 200, "the job never started");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  let during: { queued: boolean; job: number };
  let newest: string;
  try {
    // Two pushes land while it runs.
    await repo.write("Home.md", "# Home\n\nSecond.\n");
    await hook(await repo.commit("second"));
    await repo.write("Home.md", "# Home\n\nThird.\n");
    newest = await repo.commit("third");
    during = await hook(newest);
    assert.equal(during.queued, true);
    assert.notEqual(during.job, first.job, "a follow-up, not the job in hand");
    const queued = await db<{ id: number }>`SELECT id FROM sync_jobs WHERE state = 'queued'`;
    assert.deepEqual(queued.map((q) => Number(q.id)), [during.job], "exactly one follow-up");
    // The follow-up waits for the job in hand: one sync of a space at a time.
    assert.equal(await runSyncJob(deps, "worker-2", { jobId: during.job }), null);
  } finally {
    git.delayMs = 0;
  }
  assert.equal((await running)?.state, "done");
  const followUp = await runSyncJob(deps, "worker-2");
  assert.equal(Number(followUp?.id), during.job);
  assert.equal(followUp?.state, "done");
  const status = await (await call("GET", "/spaces/handbook/sync")).json();
  assert.equal(status.last_commit, newest, "the pushed commit is synced");
  const page = await (await call("GET", "/spaces/handbook/pages/Home")).json();
  assert.match(page.markdown, /Third/);
  assert.equal(await runSyncJob(deps, "worker-2"), null, "nothing else was queued");
});

Deno.test("a repository over the limits is refused cleanly and the space says so", async () => {
  await using git = await startGitServer();
  await using db = await freshDb();
  const { deps, call } = await world(db, { SYNC_ALLOW_HOSTS: git.host });
  const repo = await git.createRepo("big");
  await Promise.all(
    Array.from({ length: 5_001 }, (_, i) => repo.write(`notes/n${i}.md`, `# Note ${i}\n`)),
  );
  await repo.commit("too many notes");
  await call("PUT", "/spaces/handbook/sync", { url: git.url("big") });
  const job = await (await call("POST", "/spaces/handbook/sync")).json();
  assert.equal(job.state, "failed");
  assert.match(job.error, /over 5000 markdown files/);
  assert.equal((await db`SELECT 1 FROM pages WHERE wiki_id = 'handbook'`).length, 0);
  const status = await (await call("GET", "/spaces/handbook/sync")).json();
  assert.equal(status.failures, 1);
  assert.match(status.last_error, /over 5000 markdown files/);
  assert.equal(status.last_commit, null);

  // A pack over the byte limit stops the fetch itself.
  await assert.rejects(
    () =>
      syncSpace(deps, "handbook", {
        limits: { ...SYNC_LIMITS, packBytes: 4096, files: 10, fileBytes: 1 },
      }),
    /too large: its pack is over 4096 bytes/,
  );
  // One file over the per-file limit is reported by name; the others are written.
  await call("PUT", "/spaces/handbook/sync", { url: git.url("big"), folder: "notes" });
  const small = await git.createRepo("mixed");
  await small.write("Small.md", "# Small\n");
  await small.write("Large.md", `# Large\n\n${"x".repeat(2_000)}\n`);
  await small.commit("one large file");
  await call("PUT", "/spaces/handbook/sync", { url: git.url("mixed") });
  const mixed = await syncSpace(deps, "handbook", {
    limits: { ...SYNC_LIMITS, packBytes: 1_000_000, files: 10, fileBytes: 1_000 },
  });
  assert.equal(mixed.added, 1);
  assert.deepEqual(mixed.failed.map((f) => f.name), ["Large.md"]);
});

Deno.test("a repository URL must be https and public; tokens need SYNC_SECRET_KEY and stay sealed", async () => {
  await using db = await freshDb();
  const { call } = await world(db, {});
  const refused = async (body: Record<string, unknown>, pattern: RegExp) => {
    const response = await call("PUT", "/spaces/handbook/sync", body);
    assert.equal(response.status, 400, JSON.stringify(body));
    assert.match((await response.json()).detail, pattern);
  };
  await refused({ url: "http://git.example.com/a.git" }, /must use https/);
  await refused({ url: "https://127.0.0.1/a.git" }, /not a public address/);
  await refused({ url: "https://169.254.169.254/latest" }, /not a public address/);
  await refused({ url: "https://[::1]/a.git" }, /not a public address/);
  await refused({ url: "https://localhost/a.git" }, /not a public address/);
  await refused({ url: "https://user:pw@203.0.113.9/a.git" }, /may not carry a user/);
  await refused({ url: "file:///etc/passwd" }, /must use https/);
  await refused(
    { url: "https://8.8.8.8/a.git", token: "ghp_secret" },
    /no SYNC_SECRET_KEY/,
  );

  await using db2 = await freshDb();
  const keyed = await world(db2, { SYNC_SECRET_KEY: KEY });
  const ok = await keyed.call("PUT", "/spaces/handbook/sync", {
    url: "https://8.8.8.8/a.git",
    token: "ghp_secret_value",
    interval_minutes: 30,
  });
  assert.equal(ok.status, 201);
  const body = await ok.json();
  assert.equal(body.has_token, true);
  assert.equal(body.interval_minutes, 30);
  assert.doesNotMatch(JSON.stringify(body), /ghp_secret_value/);
  const [row] = await db2<{ token_sealed: string }>`SELECT token_sealed FROM git_sources`;
  assert.ok(row!.token_sealed.length > 20);
  assert.doesNotMatch(row!.token_sealed, /ghp_secret/);
  assert.doesNotMatch(atob(row!.token_sealed), /ghp_secret/);
  // Another URL drops the token, so it is never sent to another server.
  const moved = await (await keyed.call("PUT", "/spaces/handbook/sync", {
    url: "https://8.8.4.4/b.git",
  })).json();
  assert.equal(moved.has_token, false);
});

Deno.test("search, get_page and ask citations carry the source commit; failing syncs note stale_source", async () => {
  await using git = await startGitServer();
  await using db = await freshDb();
  const { app, call, token } = await world(db, { SYNC_ALLOW_HOSTS: git.host });
  const repo = await git.createRepo("fresh");
  await repo.write("Compost.md", "# Compost\n\nTurn the compost heap every week to aerate it.\n");
  const head = await repo.commit("compost");
  await call("PUT", "/spaces/handbook/sync", { url: git.url("fresh") });
  await call("POST", "/spaces/handbook/sync");
  const { last_synced_at } = await (await call("GET", "/spaces/handbook/sync")).json();

  const found = await (await call("GET", "/spaces/handbook/search?q=compost%20heap")).json();
  assert.equal(found.results[0].source_commit, head);
  assert.equal(found.results[0].synced_at, last_synced_at);
  const page = await (await call("GET", "/spaces/handbook/pages/Compost")).json();
  assert.equal(page.source_commit, head);
  assert.equal(page.synced_at, last_synced_at);
  const asked = await (await call("POST", "/spaces/handbook/ask", {
    question: "How often should the compost heap be turned?",
  })).json();
  assert.ok(asked.citations.length > 0, JSON.stringify(asked));
  assert.equal(asked.citations[0].source_commit, head);
  assert.ok(!asked.frontier.some((f: { kind: string }) => f.kind === "stale_source"));
  // The same fields over MCP, where assistants read them.
  const client = await mcpClient(app, "/mcp/", token);
  try {
    const mcpPage = await callOk(client, "get_page", { space: "handbook", page: "Compost" });
    assert.equal(mcpPage.source_commit, head);
    assert.equal(mcpPage.synced_at, last_synced_at);
    const mcpFound = await callOk<{ results: Record<string, unknown>[] }>(client, "search", {
      space: "handbook",
      query: "compost heap",
    });
    assert.equal(mcpFound.results[0]!.source_commit, head);
  } finally {
    await client.close();
  }

  // The repository goes away: the next syncs fail, and answers say their source may be stale.
  await Deno.remove(`${repo.dir}/../fresh.git`, { recursive: true });
  const failed = await (await call("POST", "/spaces/handbook/sync")).json();
  assert.equal(failed.state, "failed");
  const stale = await (await call("POST", "/spaces/handbook/ask", {
    question: "How often should the compost heap be turned?",
  })).json();
  const note = stale.frontier.find((f: { kind: string }) => f.kind === "stale_source");
  assert.ok(note, JSON.stringify(stale.frontier));
  assert.match(note.note, /could not be synced from its Git repository \(1 failed sync/);
  assert.equal(stale.citations[0].source_commit, head, "the pages stay as last synced");
});

Deno.test("web: connect on the sync page, Sync now from settings, freshness shown, the editor refuses", async () => {
  await using git = await startGitServer();
  await using db = await freshDb();
  const { app } = testApp(db, {
    SYNC_ALLOW_HOSTS: git.host,
    SYNC_SCHEDULER: "false",
    RATE_LIMIT_ANON_PER_MINUTE: "100000",
  });
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "kb", ownerAccountId: ana.id });
  const repo = await git.createRepo("kb");
  await repo.write("Welcome.md", "# Welcome\n\nHello.\n");
  const head = await repo.commit("welcome");

  const empty = await html(await ana.get("/w/kb/-/settings"), 200);
  assert.match(empty, /connect a repository/);
  const noKey = await html(await ana.get("/w/kb/-/sync"), 200);
  assert.match(noKey, /cannot store tokens: its operator has not set SYNC_SECRET_KEY/);
  const refused = await ana.submit("/w/kb/-/sync", { url: "https://10.1.2.3/x.git" });
  assert.equal(refused.status, 400);
  assert.match(await refused.text(), /not a public address/);

  const connected = await html(
    await ana.submit("/w/kb/-/sync", { url: git.url("kb"), branch: "main", interval: "15" }),
    200,
  );
  assert.match(connected, /Webhook secret, <strong>shown this once<\/strong>/);
  assert.match(connected, /whsec_/);
  const later = await html(await ana.get("/w/kb/-/sync"), 200);
  assert.doesNotMatch(later, /whsec_/, "the secret is not shown again");

  const now = await ana.submit("/w/kb/-/sync/now");
  assert.equal(now.status, 303);
  assert.equal(now.headers.get("location"), "/w/kb/-/sync?done=synced");
  const settings = await html(await ana.get("/w/kb/-/settings"), 200);
  assert.match(
    settings,
    new RegExp(`Last synced commit <code title="${head}">${head.slice(0, 12)}`),
  );
  assert.match(settings, /Every 15 minutes/);
  assert.match(settings, /Sync now/);

  const edit = await ana.submit("/w/kb/-/edit/Welcome", {
    markdown: "# Welcome\n\nMy local change.",
    base_revision: "1",
  });
  assert.equal(edit.status, 409);
  const editor = await edit.text();
  assert.match(editor, /synced from a Git repository/);
  assert.match(editor, /My local change\./, "the text stays in the editor");

  const off = await ana.submit("/w/kb/-/sync/disconnect");
  assert.equal(off.status, 303);
  const saved = await ana.submit("/w/kb/-/edit/Welcome", {
    markdown: "# Welcome\n\nMy local change.",
    base_revision: "1",
  });
  assert.equal(saved.status, 303, "editable again once disconnected");
});

Deno.test("deno task sync <space> syncs a connected space and says what it did", async () => {
  await using git = await startGitServer();
  await using db = await freshDb();
  const dataDir = await migratedDataDir("sync_task_");
  const env: Record<string, string> = {
    SYNC_ALLOW_HOSTS: git.host,
    SEED_DOCS: "false",
    DATA_DIR: dataDir,
    DATABASE_URL: db.url ?? "",
  };
  try {
    const repo = await git.createRepo("task");
    await repo.write("One.md", "# One\n");
    await repo.write("Two.md", "# Two\n");
    const head = await repo.commit("two pages");
    const config = testConfig(env);
    const deps = await openDeps(config, createLog("error"));
    try {
      await createWiki(deps.db, { id: "task", visibility: "private" });
      await connectGitSource(deps, "task", connectSchema.parse({ url: git.url("task") }));
    } finally {
      await deps.db.close();
    }
    const run = (...args: string[]) =>
      new Deno.Command(Deno.execPath(), {
        args: ["task", "sync", ...args],
        cwd: new URL("../", import.meta.url),
        env: { ...env, NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
    const out = await run("task");
    const text = new TextDecoder().decode(out.stdout);
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    assert.match(text, new RegExp(`task at ${head.slice(0, 12)} \\(synced\\): 2 added`));
    const again = new TextDecoder().decode((await run("task")).stdout);
    assert.match(again, /\(unchanged\): 0 added/);
    const missing = await run("nowhere");
    assert.equal(missing.code, 1);
    assert.match(
      new TextDecoder().decode(missing.stderr),
      /Space "nowhere" is not connected to a Git repository/,
    );
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("a private repository: refused without its token, synced with the sealed one", async () => {
  await using git = await startGitServer();
  await using db = await freshDb();
  const { call } = await world(db, { SYNC_ALLOW_HOSTS: git.host, SYNC_SECRET_KEY: KEY });
  const repo = await git.createRepo("private-notes");
  await repo.write("Secret.md", "# Secret\n\nOnly for us.\n");
  await repo.commit("secret");

  await call("PUT", "/spaces/handbook/sync", { url: git.url("private-notes") });
  const refused = await (await call("POST", "/spaces/handbook/sync")).json();
  assert.equal(refused.state, "failed");
  assert.match(refused.error, /refused access \(401\): it needs an access token/);

  await call("PUT", "/spaces/handbook/sync", { url: git.url("private-notes"), token: "wrong" });
  const wrong = await (await call("POST", "/spaces/handbook/sync")).json();
  assert.match(wrong.error, /refused access \(401\): check the access token/);

  await call("PUT", "/spaces/handbook/sync", { url: git.url("private-notes"), token: git.token });
  const synced = await (await call("POST", "/spaces/handbook/sync")).json();
  assert.equal(synced.state, "done", JSON.stringify(synced));
  assert.equal((await call("GET", "/spaces/handbook/pages/Secret")).status, 200);
  const [row] = await db<{ token_sealed: string }>`SELECT token_sealed FROM git_sources`;
  assert.ok(!row!.token_sealed.includes(git.token) && !atob(row!.token_sealed).includes(git.token));
  // Changing other fields keeps the token (same URL).
  await call("PUT", "/spaces/handbook/sync", { url: git.url("private-notes"), folder: "" });
  const kept = await (await call("GET", "/spaces/handbook/sync")).json();
  assert.equal(kept.has_token, true);
});

Deno.test("a host that does not resolve and one that resolves inside get one answer", async () => {
  const answer = async (addresses: string[]) => {
    try {
      await checkRepositoryUrl(
        "https://git.example.com/a.git",
        [],
        () => Promise.resolve(addresses),
      );
    } catch (error) {
      const e = error as AppError;
      return { status: e.status, code: e.code, detail: e.detail };
    }
    return null;
  };
  const unknown = await answer([]);
  const internal = await answer(["10.0.0.7"]);
  assert.deepEqual(unknown, {
    status: 400,
    code: "bad_request",
    detail: 'The repository host "git.example.com" is not a public address: it must resolve to one',
  });
  assert.deepEqual(internal, unknown);
  assert.equal(await answer(["8.8.8.8"]), null, "a public address is taken");
});
