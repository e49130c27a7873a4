import assert from "node:assert/strict";
import { SYNC_MS } from "../src/limits/request_counts.ts";
import { Client, StreamableHTTPClientTransport } from "npm:@modelcontextprotocol/client@2.4.0";
import { encodeBase64url } from "../src/lib/base64url.ts";
import { readMigrations } from "../src/db/migrate.ts";
import { openPostgres } from "../src/db/postgres.ts";
import { callOk } from "./mcp_helpers.ts";
import {
  csrfOf,
  freePort,
  httpBrowser,
  roundRobinProxy,
  SERVED_BY,
  type ServerProcess,
  startServerProcess,
  waitUntilReady,
} from "./scale_helpers.ts";

const DATABASE_URL = Deno.env.get("DATABASE_URL") || undefined;
/**
 * Behind a transaction pooler without prepared statements (PgBouncer 1.18:
 * `DATABASE_URL=$(bash scripts/setup_pgbouncer.sh | tail -n 1) DATABASE_PREPARED_STATEMENTS=false`)
 * the test's own connections do without them too; the servers read the same setting.
 */
const PREPARE = Deno.env.get("DATABASE_PREPARED_STATEMENTS") !== "false";
const PROCESSES = 3;
const EMAIL = "ana@example.com";
const PASSWORD = "correct horse battery staple";
const CALLBACK = "http://127.0.0.1:33418/callback";

/** An MCP SDK client over real HTTP, with a bearer token or none. */
async function connectMcp(url: string, token?: string): Promise<Client> {
  const client = new Client({ name: "scale-out-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : undefined,
    }),
  );
  return client;
}

/** Which process served a response, as the proxy named it. */
function servedBy(res: Response): number {
  const backend = res.headers.get(SERVED_BY);
  assert.ok(backend !== null, "the proxy names the process");
  return Number(backend);
}

/** A 2026-07-28 request of the Tasks extension, and which process answered it. */
async function taskRequest(
  base: string,
  auth: Record<string, string>,
  method: string,
  params: Record<string, unknown>,
  name: string,
  // deno-lint-ignore no-explicit-any
): Promise<{ backend: number; body: any }> {
  const res = await fetch(`${base}/mcp/`, {
    method: "POST",
    headers: {
      ...auth,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": method,
      "Mcp-Name": name,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {
            extensions: { "io.modelcontextprotocol/tasks": {} },
          },
        },
      },
    }),
  });
  return { backend: servedBy(res), body: await res.json() };
}

/** The `r` (remaining requests) of a `RateLimit` header. */
function remaining(res: Response): number {
  const match = /;r=(\d+)/.exec(res.headers.get("ratelimit") ?? "");
  assert.ok(match, `a RateLimit header on ${res.url}`);
  return Number(match[1]);
}

Deno.test({
  name: "three server processes on one PostgreSQL serve MCP, REST and OAuth behind round robin",
  ignore: !DATABASE_URL,
  async fn() {
    const name = `wiki_scale_${crypto.randomUUID().replace(/-/g, "").slice(0, 12)}`;
    const admin = openPostgres(DATABASE_URL!, { max: 1, prepare: PREPARE });
    await admin.exec(`CREATE DATABASE ${name}`);
    const url = new URL(DATABASE_URL!);
    url.pathname = `/${name}`;
    const ports = Array.from({ length: PROCESSES }, freePort);
    const proxy = roundRobinProxy(ports.map((port) => `http://127.0.0.1:${port}`));
    const base = proxy.origin;
    const servers: ServerProcess[] = [];
    const clients: Client[] = [];
    try {
      // All three start at once on the empty database: they race to migrate and seed `docs`.
      const env = {
        DATABASE_URL: url.toString(),
        BASE_URL: base,
        DATABASE_POOL_SIZE: "4",
        TRUST_PROXY: "true",
        LOG_LEVEL: "info",
        SEED_DOCS: "true",
        EMBEDDER: "offline",
        LLM_MODEL: "", // extractive answers, whatever the environment says
      };
      servers.push(...ports.map((port) => startServerProcess(port, env)));
      await Promise.all(servers.map((server) => waitUntilReady(server)));

      // Each migration was applied by exactly one of them, each guide page added by one.
      const logged = <T>(message: string) =>
        servers.flatMap((server) =>
          server.logs.filter((line) => line.startsWith("{")).map((line) => JSON.parse(line))
            .filter((entry) => entry.message === message)
        ) as T[];
      const applied = logged<{ migrations: string[] }>("migrations applied");
      const files = (await readMigrations()).map((m) => m.name);
      assert.deepEqual(applied.flatMap((entry) => entry.migrations).toSorted(), files);
      const seeded = logged<{ added: number; failed: unknown[] }>("docs wiki refreshed");
      assert.deepEqual(seeded.flatMap((entry) => entry.failed), []);
      const db = openPostgres(url.toString(), { max: 1, prepare: PREPARE });
      try {
        const recorded = await db<{ n: number }>`SELECT count(*)::int AS n FROM schema_migrations`;
        assert.equal(recorded[0]!.n, files.length);
        const revisions = await db<{ n: number }>`
          SELECT count(*)::int AS n FROM page_revisions WHERE wiki_id = 'docs'`;
        const pages = await db<{ n: number }>`
          SELECT count(*)::int AS n FROM pages WHERE wiki_id = 'docs'`;
        assert.ok(pages[0]!.n > 0, "the docs wiki was seeded");
        assert.equal(seeded.reduce((sum, entry) => sum + entry.added, 0), pages[0]!.n);
        assert.equal(revisions[0]!.n, pages[0]!.n, "three concurrent seeds wrote each page once");
      } finally {
        await db.close();
      }

      // Sign up through the web pages; the session made on one process opens pages on others.
      const ana = httpBrowser(base);
      const signupPage = await ana.get("/signup");
      const signedUp = await ana.post("/signup", {
        _csrf: csrfOf(await signupPage.text()),
        email: EMAIL,
        name: "Ana",
        password: PASSWORD,
      });
      assert.equal(signedUp.status, 303);
      await signedUp.body?.cancel();
      const account = await ana.get("/account");
      assert.equal(account.status, 200);
      assert.match(await account.text(), /Signed in as/);
      assert.notEqual(servedBy(account), servedBy(signedUp));

      // A space through the operator's CLI, while the servers run.
      const created = await new Deno.Command(Deno.execPath(), {
        args: [
          "task",
          "admin",
          "create-space",
          "--id",
          "ana-notes",
          "--owner",
          EMAIL,
          "--title",
          "Ana's notes",
        ],
        cwd: new URL("../", import.meta.url),
        env: { DATABASE_URL: url.toString(), NO_COLOR: "1" },
        stdin: "null",
      }).output();
      const cliOutput = new TextDecoder().decode(created.stderr);
      assert.equal(created.code, 0, cliOutput);
      assert.equal(new TextDecoder().decode(created.stdout).trim(), "ana-notes");

      // An account token from the tokens page.
      const tokensPage = await ana.get("/account/tokens");
      const made = await ana.post("/account/tokens", {
        _csrf: csrfOf(await tokensPage.text()),
        name: "scale test",
      });
      assert.equal(made.status, 200);
      const token = /<code id="new-token">(wk_acct_[^<]+)<\/code>/.exec(await made.text())?.[1];
      assert.ok(token, "the tokens page shows the new token once");
      const auth = { Authorization: `Bearer ${token}` };

      // REST: spaces, a page written on one process and read on the next, ask (JSON and SSE).
      const spaces = await fetch(`${base}/api/v1/spaces`, { headers: auth });
      assert.equal(spaces.status, 200);
      assert.deepEqual(
        ((await spaces.json()) as { spaces: { id: string }[] }).spaces.map((s) => s.id),
        ["ana-notes"],
      );
      const put = await fetch(`${base}/api/v1/spaces/ana-notes/pages/Launch%20plan`, {
        method: "PUT",
        headers: { ...auth, "Content-Type": "text/markdown" },
        body: "# Launch plan\n\nThe launch is on the ninth of March, from the harbour.\n",
      });
      assert.equal(put.status, 201);
      const etag = put.headers.get("etag");
      await put.body?.cancel();
      const get = await fetch(`${base}/api/v1/spaces/ana-notes/pages/Launch%20plan`, {
        headers: auth,
      });
      assert.equal(get.status, 200);
      assert.equal(get.headers.get("etag"), etag);
      assert.match(JSON.stringify(await get.json()), /ninth of March/);
      assert.notEqual(servedBy(get), servedBy(put));
      const askBody = JSON.stringify({ question: "When is the launch?" });
      const ask = await fetch(`${base}/api/v1/spaces/ana-notes/ask`, {
        method: "POST",
        headers: { ...auth, "Content-Type": "application/json" },
        body: askBody,
      });
      assert.equal(ask.status, 200);
      const answer = await ask.json() as { answer: string; citations: { page: string }[] };
      assert.match(answer.answer, /ninth of March/);
      assert.equal(answer.citations[0]?.page, "Launch plan");
      const streamed = await fetch(`${base}/api/v1/spaces/ana-notes/ask`, {
        method: "POST",
        headers: { ...auth, "Content-Type": "application/json", Accept: "text/event-stream" },
        body: askBody,
      });
      assert.equal(streamed.status, 200);
      assert.match(streamed.headers.get("content-type")!, /^text\/event-stream/);
      assert.match(await streamed.text(), /ninth of March/);

      // Rate-limit counters are shared: one budget counts down across the three processes. A
      // process counts a caller far from its budget on its own for up to SYNC_MS before it
      // writes the shared counter (src/limits/request_counts.ts): requests a second apart each
      // see every process's count.
      const counted: { backend: number; remaining: number }[] = [];
      for (let i = 0; i < PROCESSES; i++) {
        await new Promise((resolve) => setTimeout(resolve, SYNC_MS + 100));
        const res = await fetch(`${base}/api/v1/spaces`, { headers: auth });
        assert.equal(res.status, 200);
        await res.body?.cancel();
        counted.push({ backend: servedBy(res), remaining: remaining(res) });
      }
      assert.equal(new Set(counted.map((c) => c.backend)).size, PROCESSES);
      // Each process sees the others' counts (its own alone would start again near the top),
      // and counts flushed late (a process's earlier requests) only bring the budget down more.
      const left = counted.map((c) => c.remaining);
      assert.ok(left[1]! < left[0]! && left[2]! < left[1]!, `remaining ${left.join(", ")}`);

      // MCP: the hub anonymously, the private endpoint with the account token.
      const hub = await connectMcp(`${base}/mcp/hub/`);
      clients.push(hub);
      const wikis = await callOk<{ wikis: { id: string }[] }>(hub, "list_wikis");
      assert.ok(wikis.wikis.some((w) => w.id === "docs"));
      const found = await callOk<{ results: { page: string }[] }>(hub, "search", {
        wiki: "docs",
        query: "connect an assistant",
      });
      assert.ok(found.results.length > 0);
      const mine = await connectMcp(`${base}/mcp/`, token);
      clients.push(mine);
      const mySpaces = await callOk<{ spaces: { id: string }[] }>(mine, "my_spaces");
      assert.deepEqual(mySpaces.spaces.map((s) => s.id), ["ana-notes"]);
      const hits = await callOk<{ results: { page: string }[] }>(mine, "search", {
        query: "launch harbour",
      });
      assert.equal(hits.results[0]?.page, "Launch plan");
      const used = await callOk<{ uses: number }>(mine, "confirm_use", { page: "Launch plan" });
      assert.equal(used.uses, 1);

      // Tasks: `ask` started as a task on one process is polled and fetched on the others.
      const started = await taskRequest(base, auth, "tools/call", {
        name: "ask",
        arguments: { question: "When is the launch?" },
      }, "ask");
      assert.equal(started.body.result.resultType, "task");
      const taskId = started.body.result.taskId as string;
      const polled: number[] = [];
      let task: { status: string; result?: { structuredContent: unknown } };
      do {
        const got = await taskRequest(base, auth, "tasks/get", { taskId }, taskId);
        polled.push(got.backend);
        task = got.body.result;
        if (task.status === "working") await new Promise((r) => setTimeout(r, 100));
      } while (task.status === "working" && polled.length < 200);
      assert.equal(task.status, "completed");
      assert.match(JSON.stringify(task.result!.structuredContent), /ninth of March/);
      assert.ok(polled.some((backend) => backend !== started.backend), `${polled}`);

      // OAuth: every step on another process than the step before.
      const steps: { step: string; backend: number }[] = [];
      const step = (label: string, res: Response) => {
        steps.push({ step: label, backend: servedBy(res) });
        return res;
      };
      const prm = step(
        "protected resource metadata",
        await fetch(`${base}/.well-known/oauth-protected-resource/mcp`),
      );
      const resource = await prm.json() as { resource: string; authorization_servers: string[] };
      assert.equal(resource.resource, `${base}/mcp`);
      assert.deepEqual(resource.authorization_servers, [base]);
      const asm = step(
        "authorization server metadata",
        await fetch(`${base}/.well-known/oauth-authorization-server`),
      );
      const metadata = await asm.json() as Record<string, string>;
      assert.equal(metadata.issuer, base);
      assert.equal(metadata.token_endpoint, `${base}/token`);
      const registered = step(
        "register",
        await fetch(`${base}/register`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({
            client_name: "Scale-out client",
            redirect_uris: [CALLBACK],
            token_endpoint_auth_method: "none",
            grant_types: ["authorization_code", "refresh_token"],
          }),
        }),
      );
      assert.equal(registered.status, 201);
      const { client_id } = await registered.json() as { client_id: string };

      const verifier = encodeBase64url(crypto.getRandomValues(new Uint8Array(32)));
      const challenge = encodeBase64url(
        new Uint8Array(
          await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)),
        ),
      );
      const params = new URLSearchParams({
        client_id,
        redirect_uri: CALLBACK,
        response_type: "code",
        code_challenge: challenge,
        code_challenge_method: "S256",
        state: "scale-state",
        resource: `${base}/mcp`,
        scope: "wiki:read",
      });
      // A browser without a session: sent to sign in, then back to the consent page.
      const b = httpBrowser(base);
      const toSignIn = step("authorize (signed out)", await b.get(`/authorize?${params}`));
      assert.equal(toSignIn.status, 302);
      await toSignIn.body?.cancel();
      const signInPath = toSignIn.headers.get("location")!;
      const signInPage = step("sign-in page", await b.get(signInPath));
      assert.equal(signInPage.status, 200);
      const signedIn = step(
        "sign in",
        await b.post("/signin", {
          _csrf: csrfOf(await signInPage.text()),
          email: EMAIL,
          password: PASSWORD,
          next: new URL(signInPath, base).searchParams.get("next")!,
        }),
      );
      assert.equal(signedIn.status, 303);
      await signedIn.body?.cancel();
      const consentPath = signedIn.headers.get("location")!;
      assert.equal(consentPath, `/authorize?${params}`);
      const consentPage = step("consent page", await b.get(consentPath));
      assert.equal(consentPage.status, 200);
      const html = await consentPage.text();
      const fields: [string, string][] = [];
      for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) {
        fields.push([m[1]!, m[2]!.replace(/&amp;/g, "&")]);
      }
      fields.push(["space", "ana-notes"], ["decision", "allow"]);
      const consented = step("consent", await b.post("/authorize", fields));
      assert.equal(consented.status, 303);
      await consented.body?.cancel();
      const callback = new URL(consented.headers.get("location")!);
      assert.equal(callback.origin + callback.pathname, CALLBACK);
      assert.equal(callback.searchParams.get("state"), "scale-state");
      assert.equal(callback.searchParams.get("iss"), base);

      const tokenRequest = (label: string, form: Record<string, string>) =>
        fetch(`${base}/token`, {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams(form),
        }).then((res) => step(label, res));
      const exchanged = await tokenRequest("code exchange", {
        grant_type: "authorization_code",
        client_id,
        code: callback.searchParams.get("code")!,
        redirect_uri: CALLBACK,
        code_verifier: verifier,
        resource: `${base}/mcp`,
      });
      assert.equal(exchanged.status, 200);
      const grant = await exchanged.json() as { access_token: string; refresh_token: string };
      const refreshed = await tokenRequest("refresh", {
        grant_type: "refresh_token",
        client_id,
        refresh_token: grant.refresh_token,
      });
      assert.equal(refreshed.status, 200);
      const rotated = await refreshed.json() as { access_token: string; refresh_token: string };
      assert.notEqual(rotated.refresh_token, grant.refresh_token);
      const before = proxy.served.length;
      const app = await connectMcp(`${base}/mcp/`, rotated.access_token);
      clients.push(app);
      const granted = await callOk<{ spaces: { id: string }[] }>(app, "my_spaces");
      assert.deepEqual(granted.spaces.map((s) => s.id), ["ana-notes"]);
      const page = await callOk<{ markdown: string }>(app, "get_page", { page: "Launch plan" });
      assert.match(page.markdown, /ninth of March/);
      const mcpBackends = new Set(proxy.served.slice(before).map((s) => s.backend));

      // Replaying the spent refresh token revokes the grant (RFC 9700 §4.14.2): at once, on
      // every process.
      const replayed = await fetch(`${base}/token`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "refresh_token",
          client_id,
          refresh_token: grant.refresh_token,
        }),
      });
      assert.equal(replayed.status, 400);
      assert.equal((await replayed.json()).error, "invalid_grant");
      const refused = new Set<number>();
      for (let i = 0; i < PROCESSES; i++) {
        const res = await fetch(`${base}/mcp/`, {
          method: "POST",
          headers: {
            Authorization: `Bearer ${rotated.access_token}`,
            "Content-Type": "application/json",
            Accept: "application/json, text/event-stream",
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
        });
        assert.equal(res.status, 401);
        await res.body?.cancel();
        refused.add(servedBy(res));
      }
      assert.equal(refused.size, PROCESSES);

      for (let i = 1; i < steps.length; i++) {
        assert.notEqual(
          steps[i]!.backend,
          steps[i - 1]!.backend,
          `"${steps[i]!.step}" ran on the same process as "${steps[i - 1]!.step}"`,
        );
      }
      assert.equal(new Set(steps.map((s) => s.backend)).size, PROCESSES);
      assert.equal(mcpBackends.size, PROCESSES, "the OAuth client's MCP calls hit every process");

      // No 5xx through the proxy, every process served, and no process logged an error.
      const failures = proxy.served.filter((s) => s.status >= 500);
      assert.deepEqual(failures, []);
      for (let i = 0; i < PROCESSES; i++) {
        assert.ok(proxy.served.filter((s) => s.backend === i).length > 10, `process ${i} served`);
      }
      // Anything but a JSON log line or Deno fetching a package is an error too (a stack trace).
      const errors = servers.flatMap((server) =>
        server.logs.filter((line) =>
          line.startsWith("{") ? JSON.parse(line).level === "error" : !/^Download /.test(line)
        )
      );
      assert.deepEqual(errors, []);
    } catch (error) {
      // What the proxy and each process saw, for the CI log.
      console.error(JSON.stringify(proxy.served));
      for (const server of servers) console.error(server.logs.join("\n"));
      throw error;
    } finally {
      for (const client of clients) await client.close();
      await proxy.close();
      await Promise.all(servers.map((server) => server.stop()));
      await admin.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.close();
    }
  },
});
