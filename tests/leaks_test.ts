import assert from "node:assert/strict";
import { loadConfig } from "../src/config/config.ts";
import { writePage } from "../src/pages/write_page.ts";
import { CREATE_ATTEMPTS } from "../src/wikis/create_space.ts";
import { seedDocs } from "../src/wikis/seed_docs.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, testDeps } from "./helpers.ts";
import { person, spaceApp } from "./space_helpers.ts";

Deno.test("HOST sets the bind address; the default stays 0.0.0.0 for containers", () => {
  assert.equal(loadConfig({}).host, "0.0.0.0");
  assert.equal(loadConfig({ HOST: "127.0.0.1" }).host, "127.0.0.1");
  assert.equal(loadConfig({ HOST: "::" }).host, "::");
  assert.throws(() => loadConfig({ HOST: "a host/with a path" }), /HOST/);
});

Deno.test("signed out, a private space and an unknown id answer the same 404 with a way to sign in", async () => {
  await using db = await freshDb();
  const { app } = spaceApp(db);
  await createWiki(db, { id: "zq-hidden", visibility: "private" });
  for (const sub of ["", "/Page", "/-/history/Page", "/-/search?q=x", "/-/edit/Page"]) {
    const known = await app.request(`/w/zq-hidden${sub}`);
    const unknown = await app.request(`/w/zq-absent${sub}`);
    assert.equal(known.status, 404, sub);
    assert.equal(unknown.status, 404, sub);
    const knownPage = (await known.text()).replaceAll("zq-hidden", "ID");
    const unknownPage = (await unknown.text()).replaceAll("zq-absent", "ID");
    assert.equal(
      knownPage.replace(/<meta name="csrf[^>]*>|value="[^"]{20,}"/g, ""),
      unknownPage.replace(/<meta name="csrf[^>]*>|value="[^"]{20,}"/g, ""),
      sub,
    );
    assert.match(unknownPage, /href="\/signin\?next=%2Fw%2FID/, sub);
  }
});

Deno.test("POST /spaces says only 'not available' for taken (private or public) and reserved ids", async () => {
  await using db = await freshDb();
  const { app } = spaceApp(db);
  await createWiki(db, { id: "private-one", visibility: "private" });
  await createWiki(db, { id: "public-one", visibility: "public" });
  const ana = await person(app, db, "ana@example.com", "Ana");
  const answers = new Set<string>();
  for (const id of ["private-one", "public-one", "docs", "api", "mcp", "account"]) {
    const res = await ana.submit("/spaces", { id, owner: "me" });
    assert.equal(res.status, 409, id);
    const page = await res.text();
    const said = page.match(/The id &quot;[a-z-]+&quot; is [a-z ]+/)?.[0];
    assert.equal(said, `The id &quot;${id}&quot; is not available`, id);
    answers.add(said!.replace(id, "ID"));
    assert.doesNotMatch(page, /is taken|reserved/i, id);
  }
  assert.equal(answers.size, 1, "one answer for every unavailable id");
  const rows = await db<{ n: number }>`SELECT count(*)::int AS n FROM wikis WHERE id = 'docs'`;
  assert.equal(rows[0]!.n, 0, "nobody can take the guide's id");
});

Deno.test("POST /spaces limits creation attempts per account, whatever the id", async () => {
  await using db = await freshDb();
  const { app } = spaceApp(db);
  await createWiki(db, { id: "taken", visibility: "private" });
  const ana = await person(app, db, "ana@example.com", "Ana");
  for (let i = 0; i < CREATE_ATTEMPTS.limit; i++) {
    assert.equal((await ana.submit("/spaces", { id: "taken", owner: "me" })).status, 409);
  }
  // Past the budget a free id is refused too, so the refusal tells nothing about the id.
  const free = await ana.submit("/spaces", { id: "free-id", owner: "me" });
  assert.equal(free.status, 429);
  assert.equal((await ana.submit("/spaces", { id: "taken", owner: "me" })).status, 429);
  const bo = await person(app, db, "bo@example.com", "Bo");
  assert.equal((await bo.submit("/spaces", { id: "free-id", owner: "me" })).status, 303);
});

Deno.test("seeding never writes the guide into a space that took the docs id", async () => {
  await using db = await freshDb();
  const deps = testDeps(db);
  const { app } = spaceApp(db);
  const owner = await person(app, db, "sq@example.com", "Squatter");
  // Made before the id was reserved, or by an operator: it is the squatter's space.
  await createWiki(db, { id: "docs", visibility: "private", ownerAccountId: owner.id });
  await writePage(deps, { wikiId: "docs", path: "Mine", markdown: "# Mine\n\nMy own page." }, {
    source: "t",
  });
  const summary = await seedDocs(deps);
  assert.deepEqual(summary, { added: 0, updated: 0, unchanged: 0, deleted: 0, failed: [] });
  const pages = await db<{ path: string }>`SELECT path FROM pages WHERE wiki_id = 'docs'`;
  assert.deepEqual(pages.map((p) => p.path), ["Mine"], "the user's page stays, no guide page");
  const wiki = await db<{ visibility: string }>`SELECT visibility FROM wikis WHERE id = 'docs'`;
  assert.equal(wiki[0]!.visibility, "private");
  assert.ok(deps.logLines.some((l) => /docs wiki not seeded/.test(l)));
});
