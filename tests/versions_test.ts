import assert from "node:assert/strict";
import { createAccount } from "../src/accounts/accounts.ts";
import { createToken } from "../src/auth/tokens.ts";
import type { Db } from "../src/db/db.ts";
import { writePage } from "../src/pages/write_page.ts";
import { deletePage } from "../src/pages/rename_page.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { startGitServer } from "./git_server.ts";
import { freshDb, testApp } from "./helpers.ts";
import { callError, callOk, mcpClient, type Revision } from "./mcp_helpers.ts";

const REVISIONS: Revision[] = ["2026-07-28", "2025-11-25"];

type Result = { id: string; page: string; snippet: string; version?: string; url: string };

/**
 * A public wiki and a private space, each with versions v1 and v2 of a page whose answer
 * changed between them, and live pages newer than both.
 */
async function world(db: Db) {
  const { app, deps } = testApp(db);
  const ana = await createAccount(db, { email: "ana@example.com" });
  await createWiki(db, {
    id: "garden",
    title: "Garden",
    visibility: "public",
    ownerAccountId: ana.id,
  });
  await createWiki(db, { id: "ana-notes", visibility: "private", ownerAccountId: ana.id });
  const token = (await createToken(db, { accountId: ana.id, kind: "account", name: "laptop" }))
    .token;
  const call = (method: string, path: string, body?: unknown) =>
    app.request(`/api/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const by = { source: "test" };
  const write = (wikiId: string, path: string, markdown: string) =>
    writePage(deps, { wikiId, path, markdown }, by);
  for (const wiki of ["garden", "ana-notes"]) {
    await write(
      wiki,
      "Compost",
      "# Compost\n\nA compost heap is ready after three months of turning.\n",
    );
    await write(wiki, "Worms", "# Worms\n\nWorms speed up [[Compost]].\n");
    await write(wiki, "Mulch", "# Mulch\n\nMulch keeps the soil moist.\n");
    assert.equal((await call("POST", `/spaces/${wiki}/versions`, { name: "v1" })).status, 201);
    await write(
      wiki,
      "Compost",
      "# Compost\n\nA compost heap is ready after six weeks with a tumbler.\n",
    );
    await deletePage(deps, { wikiId: wiki, path: "Mulch" }, by);
    await write(wiki, "Leaves", "# Leaves\n\nLeaf mould takes two years.\n");
    assert.equal((await call("POST", `/spaces/${wiki}/versions`, { name: "v2" })).status, 201);
    await write(
      wiki,
      "Compost",
      "# Compost\n\nA compost heap is ready after ten days in a hot bin.\n",
    );
  }
  return { app, deps, call, token };
}

for (const revision of REVISIONS) {
  Deno.test(`MCP ${revision}: search, get_page, fetch and ask answer from the version asked for`, async () => {
    await using db = await freshDb();
    const { app, token } = await world(db);
    const hub = await mcpClient(app, "/mcp/hub/", undefined, revision);
    const wiki = await mcpClient(app, "/mcp/w/garden", undefined, revision);
    const mine = await mcpClient(app, "/mcp/", token, revision);
    const endpoints: [typeof hub, Record<string, string>, string][] = [
      [hub, { wiki: "garden" }, "garden"],
      [wiki, {}, "garden"],
      [mine, { space: "ana-notes" }, "ana-notes"],
    ];
    for (const [client, scope, id] of endpoints) {
      // Found in the version asked for, with the version on the result, its id and url.
      const v1 = await callOk<{ results: Result[] }>(client, "search", {
        ...scope,
        query: "compost heap ready",
        version: "v1",
      });
      assert.equal(v1.results[0]?.page, "Compost");
      assert.match(v1.results[0]!.snippet, /three months/);
      assert.equal(v1.results[0]!.version, "v1");
      assert.equal(v1.results[0]!.id, `${id}@v1/Compost`);
      assert.match(v1.results[0]!.url, new RegExp(`/w/${id}@v1/Compost(#.*)?$`));
      // A word only the old text has is found in that version, and not in the live pages.
      const months = await callOk<{ results: Result[] }>(client, "search", {
        ...scope,
        query: "months",
        version: "v1",
      });
      assert.deepEqual(months.results.map((r) => r.page), ["Compost"]);
      const live = await callOk<{ results: Result[] }>(client, "search", {
        ...scope,
        query: "months",
      });
      assert.deepEqual(live.results, []);
      // A page deleted since v1 is still in v1; a page added after it is not.
      const mulch = await callOk<{ results: Result[] }>(client, "search", {
        ...scope,
        query: "mulch soil",
        version: "v1",
      });
      assert.equal(mulch.results[0]?.page, "Mulch");
      const leaves = await callOk<{ results: Result[] }>(client, "search", {
        ...scope,
        query: "leaf mould",
        version: "v1",
      });
      assert.deepEqual(leaves.results, []);

      // A fetch of a v1 id returns the v1 text; get_page reads each version's own text.
      const fetched = await callOk<{ text: string; id: string; metadata: { version?: string } }>(
        client,
        "fetch",
        { id: v1.results[0]!.id },
      );
      assert.match(fetched.text, /three months/);
      assert.equal(fetched.metadata.version, "v1");
      assert.equal(fetched.id, `${id}@v1/Compost`);
      const asked = await callOk<{ text: string; id: string }>(client, "fetch", {
        id: `${id}/Compost`,
        version: "v1",
      });
      assert.match(asked.text, /three months/);
      assert.equal(asked.id, `${id}@v1/Compost`);
      assert.match(
        await callError(client, "fetch", { id: `${id}@v1/Compost`, version: "v2" }),
        /The id names version "v1" and version "v2" was asked/,
      );
      const v2 = await callOk<{ markdown: string; version?: string; revision: number }>(
        client,
        "get_page",
        { ...scope, page: "Compost", version: "v2" },
      );
      assert.match(v2.markdown, /six weeks/);
      assert.equal(v2.version, "v2");
      assert.equal(v2.revision, 2);
      const current = await callOk<{ markdown: string }>(client, "get_page", {
        ...scope,
        page: "Compost",
      });
      assert.match(current.markdown, /ten days/);
      // A url of a version is read in that version.
      const byUrl = await callOk<{ markdown: string }>(client, "get_page", {
        ...scope,
        page: v1.results[0]!.url,
      });
      assert.match(byUrl.markdown, /three months/);

      // Asked of v1, the answer quotes v1 and says the page changed in the default.
      const answer = await callOk<{
        answer: string;
        citations: { page: string; version?: string; quote: string; url: string }[];
        frontier: { kind: string; pages?: string[] }[];
      }>(client, "ask", { ...scope, question: "When is a compost heap ready?", version: "v1" });
      assert.match(answer.answer, /three months/);
      assert.equal(answer.citations[0]?.version, "v1");
      assert.match(answer.citations[0]!.url, /@v1\//);
      const note = answer.frontier.find((f) => f.kind === "version_changed");
      assert.deepEqual(note?.pages, ["Compost"]);
      const answer2 = await callOk<{ answer: string }>(client, "ask", {
        ...scope,
        question: "When is a compost heap ready?",
        version: "v2",
      });
      assert.match(answer2.answer, /six weeks/);

      // The list and neighbours of a version are its own.
      const list = await callOk<{ pages: { page: string }[] }>(client, "list_pages", {
        ...scope,
        version: "v1",
      });
      assert.deepEqual(list.pages.map((p) => p.page), ["Compost", "Mulch", "Worms"]);
      const near = await callOk<{ neighbors: { page: string; relation: string }[] }>(
        client,
        "neighbors",
        { ...scope, page: "Compost", version: "v1" },
      );
      assert.deepEqual(near.neighbors.map((n) => [n.page, n.relation]), [["Worms", "linked_from"]]);

      // An unknown version is an error that lists the versions there are.
      for (const tool of ["search", "get_page", "list_pages", "ask"]) {
        const text = await callError(client, tool, {
          ...scope,
          query: "compost",
          page: "Compost",
          question: "When?",
          version: "v9",
        });
        assert.match(text, /Version "v9" not found/, tool);
        assert.match(text, /"v1", "v2", "latest"/, tool);
      }
      const unknown = await callError(client, "fetch", { id: `${id}@v9/Compost` });
      assert.match(unknown, /"v1", "v2"/);
    }
    const wikis = await callOk<
      { wikis: { id: string; versions: string[]; default_version: string }[] }
    >(
      hub,
      "list_wikis",
    );
    assert.deepEqual(wikis.wikis.find((w) => w.id === "garden")?.versions, ["v1", "v2", "latest"]);
    const spaces = await callOk<
      { spaces: { id: string; versions: string[]; default_version: string }[] }
    >(
      mine,
      "my_spaces",
    );
    assert.equal(spaces.spaces.find((s) => s.id === "ana-notes")?.default_version, "latest");
    for (const client of [hub, wiki, mine]) await client.close();
  });
}

Deno.test("REST: reads and ask take a version; an unknown one is a problem listing the versions", async () => {
  await using db = await freshDb();
  const { app, call } = await world(db);
  const found =
    await (await app.request("/api/v1/public/wikis/garden/search?q=compost+ready&version=v1"))
      .json();
  assert.equal(found.results[0].version, "v1");
  assert.match(found.results[0].snippet, /three months/);
  const page = await app.request("/api/v1/public/wikis/garden/pages/Compost?version=v2");
  assert.equal(page.status, 200);
  assert.match((await page.json()).markdown, /six weeks/);
  const raw = await app.request("/api/v1/public/wikis/garden/pages/Mulch?version=v1", {
    headers: { Accept: "text/markdown" },
  });
  assert.match(await raw.text(), /moist/);
  assert.equal((await app.request("/api/v1/public/wikis/garden/pages/Mulch")).status, 404);
  const asked = await (await call("POST", "/spaces/ana-notes/ask", {
    question: "When is a compost heap ready?",
    version: "v2",
  })).json();
  assert.match(asked.answer, /six weeks/);
  assert.equal(asked.citations[0].version, "v2");

  const missing = await app.request("/api/v1/public/wikis/garden/search?q=compost&version=v9");
  assert.equal(missing.status, 404);
  assert.match(missing.headers.get("content-type")!, /application\/problem\+json/);
  const problem = await missing.json();
  assert.equal(problem.code, "version_not_found");
  assert.match(problem.detail, /"v1", "v2"/);
  const openapi = await (await app.request("/api/v1/openapi.json")).json();
  assert.ok(openapi.paths["/spaces/{id}/versions"].post);
  assert.ok(
    openapi.paths["/public/wikis/{id}/search"].get.parameters.some((p: { name: string }) =>
      p.name === "version"
    ),
  );
});

Deno.test("REST: owners list, rename, choose the default and delete versions; the default stays", async () => {
  await using db = await freshDb();
  const { app, call } = await world(db);
  const listed = await (await call("GET", "/spaces/garden/versions")).json();
  assert.deepEqual(listed.versions.map((v: { name: string }) => v.name), ["v2", "v1"]);
  assert.equal(listed.default, "latest");
  assert.equal((await call("POST", "/spaces/garden/versions", { name: "v1" })).status, 409);
  assert.equal((await call("POST", "/spaces/garden/versions", { name: "a/b" })).status, 400);

  // The default answers reads that name no version.
  const chosen = await call("PATCH", "/spaces/garden/versions/v1", { default: true });
  assert.equal((await chosen.json()).default, "v1");
  const read = await (await app.request("/api/v1/public/wikis/garden/pages/Compost")).json();
  assert.match(read.markdown, /three months/);
  assert.equal(read.version, "v1");
  const latest =
    await (await app.request("/api/v1/public/wikis/garden/pages/Compost?version=latest"))
      .json();
  assert.match(latest.markdown, /ten days/);
  const refused = await call("DELETE", "/spaces/garden/versions/v1");
  assert.equal(refused.status, 409);
  assert.equal((await refused.json()).code, "default_version");

  const renamed = await call("PATCH", "/spaces/garden/versions/v1", { name: "1.0" });
  assert.equal(renamed.status, 200);
  assert.equal((await renamed.json()).default, "1.0");
  assert.equal((await call("DELETE", "/spaces/garden/versions/v2")).status, 204);
  const after = await (await call("GET", "/spaces/garden/versions")).json();
  assert.deepEqual(after.versions.map((v: { name: string }) => v.name), ["1.0"]);
  // The pages a deleted version pointed at are untouched.
  const page = await (await app.request("/api/v1/public/wikis/garden/pages/Compost?version=latest"))
    .json();
  assert.equal(page.revision, 3);
});

Deno.test("a synced repository with tags v1.0 and v2.0 becomes two versions", async () => {
  await using git = await startGitServer();
  await using db = await freshDb();
  const { app, deps } = testApp(db, { SYNC_SCHEDULER: "false", SYNC_ALLOW_HOSTS: git.host });
  const ana = await createAccount(db, { email: "ana@example.com" });
  await createWiki(db, { id: "handbook", visibility: "private", ownerAccountId: ana.id });
  const token = (await createToken(db, { accountId: ana.id, kind: "account", name: "a" })).token;
  const call = (method: string, path: string, body?: unknown) =>
    app.request(`/api/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const repo = await git.createRepo("handbook");
  await repo.write("Setup.md", "# Setup\n\nInstall version one of the tools with make.\n");
  await repo.commit("one");
  await repo.git("tag", "v1.0");
  await repo.git("push", "origin", "v1.0");
  await repo.write("Setup.md", "# Setup\n\nInstall the tools with the installer script.\n");
  await repo.commit("two");
  await repo.git("tag", "v2.0");
  await repo.git("push", "origin", "v2.0");
  await repo.write("Setup.md", "# Setup\n\nInstall the tools from the package registry.\n");
  await repo.commit("three");
  await repo.git("tag", "other");
  await repo.git("push", "origin", "other");

  assert.equal(
    (await call("PUT", "/spaces/handbook/sync", { url: git.url("handbook"), branch: "main" }))
      .status,
    201,
  );
  assert.equal((await call("PATCH", "/spaces/handbook/versions", { pattern: "v*" })).status, 200);
  const synced = await (await call("POST", "/spaces/handbook/sync")).json();
  assert.equal(synced.state, "done", JSON.stringify(synced));
  const listed = await (await call("GET", "/spaces/handbook/versions")).json();
  assert.deepEqual(listed.versions.map((v: { name: string }) => v.name).sort(), ["v1.0", "v2.0"]);
  assert.equal(
    listed.versions.find((v: { name: string }) => v.name === "v1.0").source_ref,
    "refs/tags/v1.0",
  );
  const read = (version: string) =>
    Promise.resolve(call("GET", `/spaces/handbook/pages/Setup?version=${version}`))
      .then((r) => r.json());
  const one = await read("v1.0");
  assert.match(one.markdown, /make/, JSON.stringify(one));
  assert.match((await read("v2.0")).markdown, /installer script/);
  assert.match((await read("latest")).markdown, /package registry/);
  // A sync with no new tag publishes nothing more.
  await call("POST", "/spaces/handbook/sync");
  const again = await (await call("GET", "/spaces/handbook/versions")).json();
  assert.equal(again.versions.length, 2);
  void deps;
});

Deno.test("deno task admin publishes, lists, chooses the default and deletes versions", async () => {
  await using db = await freshDb();
  const { app } = await world(db);
  const { runAdmin } = await import("../scripts/admin.ts");
  assert.match(
    await runAdmin(db, ["publish-version", "garden", "v3", "--default"]),
    /v3 \(3 pages\)/,
  );
  const listed = await runAdmin(db, ["versions", "garden"]);
  assert.match(listed, /^v3\t3 pages\t.*\tdefault$/m);
  assert.match(listed, /default: v3/);
  await assert.rejects(runAdmin(db, ["delete-version", "garden", "v3"]), /is the default/);
  assert.equal(
    await runAdmin(db, ["default-version", "garden", "latest"]),
    "reads of garden now get latest",
  );
  assert.equal(await runAdmin(db, ["delete-version", "garden", "v3"]), "deleted v3");
  await runAdmin(db, ["rename-version", "garden", "v1", "2024.1"]);
  const page = await (await app.request("/api/v1/public/wikis/garden/pages/Compost?version=2024.1"))
    .json();
  assert.match(page.markdown, /three months/);
  assert.match(await runAdmin(db, ["version-pattern", "garden", "v*"]), /v\*/);
});

Deno.test("web: a page in a version, its banner and switcher, llms.txt, .md and export per version", async () => {
  await using db = await freshDb();
  const { app, call } = await world(db);
  await call("PATCH", "/spaces/garden/versions", { default: "v2" });
  const page = await app.request("/w/garden@v1/Compost");
  assert.equal(page.status, 200);
  const html = await page.text();
  assert.match(html, /three months/);
  assert.match(html, /You are reading version <strong>v1<\/strong>/);
  assert.match(html, /href="\/w\/garden@v2\/Compost"/, "the banner links to the default");
  assert.match(html, /<option value="latest" ?>latest \(live pages\)<\/option>/, "the switcher");
  assert.match(html, /<option value="v1" selected>v1<\/option>/);
  const deflt = await (await app.request("/w/garden@v2/Compost")).text();
  assert.doesNotMatch(deflt, /You are reading version/);
  assert.equal((await app.request("/w/garden@v9/Compost")).status, 404);

  const md = await app.request("/w/garden@v1/Mulch.md");
  assert.match(await md.text(), /moist/);
  const llms = await (await app.request("/w/garden@v1/llms.txt")).text();
  assert.match(llms, /\/w\/garden@v1\/Mulch\.md/);
  assert.doesNotMatch(llms, /Leaves/);
  const zip = await app.request("/w/garden@v1/-/export");
  assert.equal(zip.headers.get("content-type"), "application/zip");
  const { unzipSync } = await import("fflate");
  const files = unzipSync(new Uint8Array(await zip.arrayBuffer()));
  assert.deepEqual(Object.keys(files).sort(), [
    "garden@v1/Compost.md",
    "garden@v1/Mulch.md",
    "garden@v1/Worms.md",
  ]);
  const listed = await (await app.request("/w/garden/-/versions")).text();
  assert.match(listed, /v1<\/a>/);
  assert.match(listed, /v2<\/a> <strong class="default-mark">\(default\)/);
});
