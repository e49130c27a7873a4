import assert from "node:assert/strict";
import { zipSync } from "fflate";
import { createAccount } from "../src/accounts/accounts.ts";
import { createToken } from "../src/auth/tokens.ts";
import type { Db } from "../src/db/db.ts";
import { writePage } from "../src/pages/write_page.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { startFakeOpenAi } from "./fake_openai.ts";
import { freshDb, testApp, testDeps } from "./helpers.ts";

async function world(db: Db) {
  const deps = testDeps(db);
  await createWiki(db, { id: "garden", title: "Garden", visibility: "public" });
  const ana = await createAccount(db, { email: "ana@example.com" });
  const bo = await createAccount(db, { email: "bo@example.com" });
  await createWiki(db, { id: "notes", visibility: "private", ownerAccountId: ana.id });
  await createWiki(db, { id: "bo-notes", visibility: "private", ownerAccountId: bo.id });
  const by = { source: "test" };
  await writePage(deps, {
    wikiId: "garden",
    path: "Guides/Compost",
    markdown: "# Compost\nTurn the heap weekly. [[Worms]]",
  }, by);
  await writePage(deps, {
    wikiId: "notes",
    path: "Plan",
    markdown: "# Plan\nLaunch on the ninth of March.",
  }, by);
  await writePage(
    deps,
    { wikiId: "bo-notes", path: "Diary", markdown: "# Diary\nBo's secret." },
    by,
  );
  const account = (await createToken(db, { accountId: ana.id, kind: "account", name: "a" })).token;
  const space =
    (await createToken(db, { accountId: ana.id, kind: "space", spaceId: "notes", name: "s" }))
      .token;
  return { account, space };
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

Deno.test("public reads: a wiki, its pages, a page as JSON or markdown with ETag, neighbors, search", async () => {
  await using db = await freshDb();
  await world(db);
  const { app } = testApp(db);
  const wiki = await (await app.request("/api/v1/public/wikis/garden")).json();
  assert.equal(wiki.pages, 1);
  const pages = await (await app.request("/api/v1/public/wikis/garden/pages")).json();
  assert.deepEqual(pages.pages.map((p: { page: string }) => p.page), ["Guides/Compost"]);
  const res = await app.request("/api/v1/public/wikis/garden/pages/guides%2Fcompost");
  assert.equal(res.status, 200);
  const etag = res.headers.get("etag")!;
  assert.match(etag, /^"\d+-1"$/);
  assert.equal((await res.json()).title, "Compost");
  const md = await app.request("/api/v1/public/wikis/garden/pages/Guides%2FCompost", {
    headers: { Accept: "text/markdown" },
  });
  assert.match(md.headers.get("content-type")!, /text\/markdown/);
  assert.equal(await md.text(), "# Compost\nTurn the heap weekly. [[Worms]]");
  const cached = await app.request("/api/v1/public/wikis/garden/pages/Guides%2FCompost", {
    headers: { "If-None-Match": etag },
  });
  assert.equal(cached.status, 304);
  const near =
    await (await app.request("/api/v1/public/wikis/garden/pages/Guides%2FCompost/neighbors"))
      .json();
  assert.deepEqual(
    near.neighbors.map((n: { page: string; exists: boolean }) => [n.page, n.exists]),
    [["Worms", false]],
  );
  const found = await (await app.request("/api/v1/public/wikis/garden/search?q=heap")).json();
  assert.equal(found.results[0].page, "Guides/Compost");
});

Deno.test("public routes never reveal a private wiki, and say why a request is bad", async () => {
  await using db = await freshDb();
  await world(db);
  const { app } = testApp(db);
  for (
    const path of [
      "/api/v1/public/wikis/notes",
      "/api/v1/public/wikis/notes/pages/Plan",
      "/api/v1/public/wikis/notes/search?q=launch",
    ]
  ) {
    const res = await app.request(path);
    assert.equal(res.status, 404, path);
    assert.doesNotMatch(await res.text(), /March/);
  }
  const missing = await app.request("/api/v1/public/wikis/garden/pages/Nope");
  assert.equal((await missing.json()).code, "page_not_found");
  const empty = await app.request("/api/v1/public/wikis/garden/search?q=");
  assert.equal(empty.status, 400);
  const noQuery = await app.request("/api/v1/public/wikis/garden/search");
  assert.equal((await noQuery.json()).code, "bad_request");
});

Deno.test("POST ask needs application/json and a question; it answers with citations", async () => {
  await using db = await freshDb();
  await world(db);
  const { app } = testApp(db);
  const wrongType = await app.request("/api/v1/public/wikis/garden/ask", {
    method: "POST",
    body: "question=x",
    headers: { "Content-Type": "text/plain" },
  });
  assert.equal(wrongType.status, 415);
  assert.equal((await wrongType.json()).code, "unsupported_media_type");
  const malformed = await app.request("/api/v1/public/wikis/garden/ask", {
    method: "POST",
    body: "{oops",
    headers: { "Content-Type": "application/json" },
  });
  assert.equal(malformed.status, 400);
  assert.equal((await malformed.json()).code, "invalid_json");
  const noQuestion = await app.request("/api/v1/public/wikis/garden/ask", {
    method: "POST",
    body: "{}",
    headers: { "Content-Type": "application/json" },
  });
  assert.equal(noQuestion.status, 400);
  const res = await app.request("/api/v1/public/wikis/garden/ask", {
    method: "POST",
    body: JSON.stringify({ question: "How often should I turn the compost heap?" }),
    headers: { "Content-Type": "application/json" },
  });
  assert.equal(res.status, 200);
  const answer = await res.json();
  assert.match(answer.answer, /Turn the heap weekly/);
  assert.equal(answer.citations[0].page, "Guides/Compost");
  assert.ok(["supported", "partial"].includes(answer.coverage));
});

Deno.test("ask streams status, deltas and the answer as server-sent events", async () => {
  await using db = await freshDb();
  await world(db);
  const { app } = testApp(db);
  const res = await app.request("/api/v1/public/wikis/garden/ask", {
    method: "POST",
    body: JSON.stringify({ question: "How often should I turn the compost heap?" }),
    headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
  });
  assert.match(res.headers.get("content-type")!, /text\/event-stream/);
  const text = await res.text();
  const events = [...text.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
  assert.equal(events[0], "status");
  assert.ok(events.includes("delta"));
  assert.equal(events[events.length - 1], "answer");
  const final = JSON.parse(/event: answer\ndata: (.*)/.exec(text)![1]!);
  assert.equal(final.citations[0].page, "Guides/Compost");
});

Deno.test("/spaces wants an account token: 401 without, 403 for a space token, 404 for another's space", async () => {
  await using db = await freshDb();
  const { account, space } = await world(db);
  const { app } = testApp(db);
  const none = await app.request("/api/v1/spaces");
  assert.equal(none.status, 401);
  assert.match(none.headers.get("www-authenticate")!, /^Bearer /);
  assert.equal(
    (await app.request("/api/v1/spaces", { headers: bearer("wk_acct_nope") })).status,
    401,
  );
  const spaceToken = await app.request("/api/v1/spaces", { headers: bearer(space) });
  assert.equal(spaceToken.status, 403);
  assert.match((await spaceToken.json()).detail, /account token/);
  const spaces = await (await app.request("/api/v1/spaces", { headers: bearer(account) })).json();
  assert.deepEqual(spaces.spaces.map((s: { id: string }) => s.id), ["notes"]);
  const other = await app.request("/api/v1/spaces/bo-notes/pages/Diary", {
    headers: bearer(account),
  });
  assert.equal(other.status, 404);
  assert.doesNotMatch(await other.text(), /secret/);
  const ask = await app.request("/api/v1/spaces/notes/ask", {
    method: "POST",
    headers: { ...bearer(account), "Content-Type": "application/json" },
    body: JSON.stringify({ question: "When is the launch?" }),
  });
  assert.match((await ask.json()).answer, /ninth of March/);
});

Deno.test("page writes: PUT creates then updates, If-Match guards, search sees the write at once, DELETE", async () => {
  await using db = await freshDb();
  const { account } = await world(db);
  const { app } = testApp(db);
  const put = (body: string, headers: Record<string, string> = {}) =>
    app.request("/api/v1/spaces/notes/pages/Guides%2FRunbook", {
      method: "PUT",
      body,
      headers: { ...bearer(account), "Content-Type": "text/markdown", ...headers },
    });
  const created = await put("# Runbook\nRestart the flux capacitor gently.");
  assert.equal(created.status, 201);
  const etag = created.headers.get("etag")!;
  const found = await (await app.request("/api/v1/spaces/notes/search?q=flux capacitor", {
    headers: bearer(account),
  })).json();
  assert.equal(found.results[0].page, "Guides/Runbook");
  const updated = await put("# Runbook\nRestart the warp core.", { "If-Match": etag });
  assert.equal(updated.status, 200);
  assert.equal((await updated.json()).revision, 2);
  const stale = await put("# Runbook\nA lost update.", { "If-Match": etag });
  assert.equal(stale.status, 412);
  assert.equal((await stale.json()).code, "precondition_failed");
  const after = await (await app.request("/api/v1/spaces/notes/search?q=warp core", {
    headers: bearer(account),
  })).json();
  assert.equal(after.results[0].page, "Guides/Runbook");
  const json = await app.request("/api/v1/spaces/notes/pages/Json%20page", {
    method: "PUT",
    headers: { ...bearer(account), "Content-Type": "application/json" },
    body: JSON.stringify({ markdown: "Body", title: "Explicit title" }),
  });
  assert.equal((await json.json()).status, "created");
  const wrongType = await app.request("/api/v1/spaces/notes/pages/X", {
    method: "PUT",
    headers: { ...bearer(account), "Content-Type": "image/png" },
    body: "x",
  });
  assert.equal(wrongType.status, 415);
  const del = await app.request("/api/v1/spaces/notes/pages/Guides%2FRunbook", {
    method: "DELETE",
    headers: bearer(account),
  });
  assert.equal(del.status, 204);
  const gone = await (await app.request("/api/v1/spaces/notes/search?q=warp core", {
    headers: bearer(account),
  })).json();
  assert.deepEqual(gone.results, []);
});

Deno.test("POST import takes a zip or a JSON batch and reports failures by name", async () => {
  await using db = await freshDb();
  const { account } = await world(db);
  const { app } = testApp(db);
  const zip = zipSync({
    "export/A.md": new TextEncoder().encode("# A"),
    "export/B.md": new Uint8Array([0xff, 0xfe]),
  });
  const res = await app.request("/api/v1/spaces/notes/import", {
    method: "POST",
    headers: { ...bearer(account), "Content-Type": "application/zip" },
    body: zip,
  });
  const summary = await res.json();
  assert.equal(summary.added, 1);
  assert.deepEqual(summary.failed.map((f: { name: string }) => f.name), ["export/B.md"]);
  const batch = await app.request("/api/v1/spaces/notes/import", {
    method: "POST",
    headers: { ...bearer(account), "Content-Type": "application/json" },
    body: JSON.stringify({
      pages: [{ path: "A", markdown: "# A" }, { path: "C", markdown: "# C" }, { path: 5 }],
    }),
  });
  const second = await batch.json();
  assert.deepEqual([second.added, second.unchanged, second.failed.length], [1, 1, 1]);
  const bad = await app.request("/api/v1/spaces/notes/import", {
    method: "POST",
    headers: { ...bearer(account), "Content-Type": "application/zip" },
    body: "not a zip",
  });
  assert.equal(bad.status, 400);
});

Deno.test("the OpenAPI document describes every /api/v1 route the app serves", async () => {
  await using db = await freshDb();
  const { app } = testApp(db);
  const spec = await (await app.request("/api/v1/openapi.json")).json();
  assert.equal(spec.openapi, "3.1.0");
  const documented = new Set(
    Object.entries(spec.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} /api/v1${path.replace(/\{(\w+)\}/g, ":$1")}`)
    ),
  );
  const served = app.routes
    .filter((r) =>
      r.path.startsWith("/api/v1/") && r.method !== "ALL" && !/openapi\.json|\/docs$/.test(r.path)
    )
    .map((r) => `${r.method} ${r.path}`);
  for (const route of served) {
    assert.ok(documented.has(route), `${route} is in the OpenAPI document`);
  }
  assert.ok(served.length >= 15);
  // Every operation has a unique operationId (clients generate method names from them).
  const operations = Object.entries(spec.paths as Record<string, Record<string, unknown>>)
    .flatMap(([path, ops]) =>
      Object.entries(ops as Record<string, { operationId?: string }>).map(([m, op]) => ({
        name: `${m.toUpperCase()} ${path}`,
        id: op.operationId,
      }))
    );
  assert.deepEqual(operations.filter((o) => !o.id).map((o) => o.name), []);
  assert.equal(new Set(operations.map((o) => o.id)).size, operations.length);
  assert.ok(spec.info.license?.name, "the document names its licence");
  const docs = await app.request("/api/v1/docs");
  assert.match(await docs.text(), /\/spaces\/\{id\}\/ask/);
});

Deno.test("llms.txt lists public wikis and their pages; /w/<id>/<path>.md is the markdown", async () => {
  await using db = await freshDb();
  await world(db);
  const { app } = testApp(db);
  const root = await (await app.request("/llms.txt")).text();
  assert.match(root, /\[Garden\]\(http:\/\/wiki\.test\/w\/garden\/llms\.txt\)/);
  assert.doesNotMatch(root, /notes/);
  const wiki = await (await app.request("/w/garden/llms.txt")).text();
  assert.match(wiki, /- \[Compost\]\(http:\/\/wiki\.test\/w\/garden\/Guides\/Compost\.md\)/);
  const md = await app.request("/w/garden/Guides/Compost.md");
  assert.equal(md.status, 200);
  assert.equal(await md.text(), "# Compost\nTurn the heap weekly. [[Worms]]");
  assert.equal((await app.request("/w/notes/llms.txt")).status, 404);
  assert.equal((await app.request("/w/notes/Plan.md")).status, 404);
});

Deno.test("ask streams an LLM answer once its citations are verified", async () => {
  const fake = startFakeOpenAi();
  try {
    await using db = await freshDb();
    await world(db);
    const { app } = testApp(db, { LLM_MODEL: "fake-chat", LLM_BASE_URL: fake.url });
    fake.chat(() =>
      JSON.stringify({
        answer: "Turn it weekly [1]. Water it daily [1].",
        citations: [{ passage: 1, quote: "Turn the heap weekly." }, {
          passage: 1,
          quote: "Water the heap daily.",
        }],
      })
    );
    const res = await app.request("/api/v1/public/wikis/garden/ask", {
      method: "POST",
      body: JSON.stringify({ question: "How often should I turn the compost heap?" }),
      headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
    });
    const text = await res.text();
    const deltas = [...text.matchAll(/event: delta\ndata: (.*)/g)].map((m) =>
      JSON.parse(m[1]!).text
    ).join("");
    assert.equal(deltas, "Turn it weekly [1]. Water it daily [1].");
    const final = JSON.parse(/event: answer\ndata: (.*)/.exec(text)![1]!);
    assert.equal(final.mode, "llm");
    assert.deepEqual(final.citations.map((c: { quote: string }) => c.quote), [
      "Turn the heap weekly.",
    ]);
    assert.ok(final.frontier.some((f: { kind: string }) => f.kind === "citation_dropped"));
  } finally {
    await fake.close();
  }
});
