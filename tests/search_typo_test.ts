import assert from "node:assert/strict";
import { seedDocs } from "../src/wikis/seed_docs.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb } from "./helpers.ts";
import { person, seedPages, spaceApp } from "./space_helpers.ts";

// Search as you type (`GET /w/<id>/-/suggest`, what the search box and the Ctrl+K palette
// read) forgives a half-typed word and one typo in a longer word; the exact word stays first.
// Runs on PGlite, and on PostgreSQL with DATABASE_URL.

type Suggestion = { title: string; section: string | null; href: string; snippet?: string };

async function suggest(app: { request(path: string): Response | Promise<Response> }, q: string) {
  const res = await app.request(`/w/${q}`);
  assert.equal(res.status, 200);
  return ((await res.json()) as { results: Suggestion[] }).results;
}

Deno.test("search as you type finds a page by a prefix and by a typo, the exact title first", async () => {
  await using db = await freshDb();
  const { app, deps } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "ops", visibility: "public", ownerAccountId: ana.id });
  await seedPages(deps, "ops", {
    "Home": "# Home\n\nThe operations handbook.",
    "Retained logs": "# Retained logs\n\nWhich logs stay.",
    "Audit": "# Audit\n\nThe audit log.\n\n## Retention\n\nEntries are kept 90 days.\n",
    "Retention": "# Retention\n\nHow long each kind of data is kept.",
    "Configuration": "# Configuration\n\nEvery setting.\n\n## Environment variables\n\nPORT.",
    "Setup": "# Setup\n\nInstall it.\n\n## Configurations we test\n\nTwo.",
  });

  const reten = await suggest(app, "ops/-/suggest?q=reten");
  // "Retained logs" does not begin with "reten" (nor is it one letter away): not offered.
  assert.deepEqual(reten.slice(0, 2).map((r) => r.href), [
    "/w/ops/Retention",
    "/w/ops/Audit#retention",
  ]);
  assert.ok(!reten.some((r) => r.href === "/w/ops/Retained%20logs"), JSON.stringify(reten));

  const exact = await suggest(app, "ops/-/suggest?q=retention");
  assert.equal(exact[0]?.href, "/w/ops/Retention", JSON.stringify(exact));
  assert.equal(exact[1]?.href, "/w/ops/Audit#retention", "then the heading of that name");

  const typo = await suggest(app, "ops/-/suggest?q=configuraton");
  assert.equal(typo[0]?.href, "/w/ops/Configuration", JSON.stringify(typo));
  assert.ok(typo.some((r) => r.href === "/w/ops/Setup#configurations-we-test"));
  // A four-letter word gets no typo: "tokn" is not "token".
  assert.deepEqual(await suggest(app, "ops/-/suggest?q=hoem"), []);
  assert.deepEqual(await suggest(app, "ops/-/suggest?q=zzzzzz"), []);
});

Deno.test("the guide answers a typo and a prefix as you type: configuraton and reten find their pages", async () => {
  await using db = await freshDb();
  const { app, deps } = spaceApp(db);
  await seedDocs(deps);
  const typo = await suggest(app, "docs/-/suggest?q=configuraton");
  assert.ok(typo.length > 0, "something found");
  for (const r of typo) {
    assert.match(
      `${r.title} ${r.section ?? ""} ${r.snippet ?? ""}`,
      /configur/i,
      JSON.stringify(r),
    );
  }
  // A half-typed word: "reten" reaches the guide's retention of the audit log.
  const reten = await suggest(app, "docs/-/suggest?q=reten");
  assert.ok(
    reten.some((r) =>
      /^\/w\/docs\/(Tokens|Self-hosting)/.test(r.href) &&
      /retention|retained|pruned/i.test(`${r.title} ${r.section ?? ""} ${r.snippet ?? ""}`)
    ),
    JSON.stringify(reten),
  );
  const prefix = await suggest(app, "docs/-/suggest?q=self-host");
  assert.equal(prefix[0]?.href, "/w/docs/Self-hosting", JSON.stringify(prefix));
  const heading = await suggest(app, "docs/-/suggest?q=environmnt variables");
  assert.equal(
    heading[0]?.href,
    "/w/docs/Self-hosting#environment-variables",
    JSON.stringify(heading),
  );
});
