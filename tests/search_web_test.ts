import assert from "node:assert/strict";
import { leaveTeam } from "../src/teams/teams.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb } from "./helpers.ts";
import { html, person, seedPages, spaceApp, teamWiki } from "./space_helpers.ts";

/** A page whose words about herons sit among wikilinks, a table, a code fence and emphasis. */
const MARKUP = "# Herons\n\n## Nesting\n\nThe **grey heron** nests near [[Ponds|the ponds]] " +
  "and [[Reed beds]].\n\n| Bird | Nest |\n| --- | --- |\n| heron | reeds |\n\n" +
  "```sh\nheron --count\n```\n";

type Suggestion = { title: string; section: string | null; href: string; snippet?: string };

Deno.test("search results and search as you type show titles, sections and snippets as clean text", async () => {
  await using db = await freshDb();
  const { app, deps } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, {
    id: "birds",
    title: "Birds",
    visibility: "public",
    ownerAccountId: ana.id,
  });
  await seedPages(deps, "birds", { "Herons": MARKUP, "Ponds": "# Ponds\n\nStill water." });

  const { results } = await (await app.request("/w/birds/-/suggest?q=heron nests")).json() as {
    results: Suggestion[];
  };
  assert.equal(results[0]?.title, "Herons", "the title first");
  const section = results.find((r) => r.snippet);
  assert.ok(section, JSON.stringify(results));
  assert.match(section.snippet!, /grey heron nests near the ponds and Reed beds/);
  for (const r of results) assert.doesNotMatch(r.snippet ?? "", /\[\[|\]\]|\*\*|```|\|/);

  const page = await html(await app.request("/w/birds/-/search?q=heron"), 200);
  const list = /<ol class="results">([\s\S]*?)<\/ol>/.exec(page)![1]!;
  assert.match(list, /<a href="\/w\/birds\/Herons[^"]*">Herons<\/a>/);
  assert.match(list, /<mark>heron<\/mark>/);
  assert.doesNotMatch(list, /\[\[|\]\]|\*\*|```|\| /);
  // A code block's line and a table row stand on lines of their own, and are shown so.
  assert.match(list, /<p class="snippet">[^\n]*\n<mark>Heron<\/mark> — Nest: reeds\.\n<mark>heron/);
  // A table's header row is read into each row, never shown as a line of its own.
  assert.doesNotMatch(list, /Bird, Nest/);
  assert.match(page, /\.results p\.snippet\{white-space:pre-line\}/);
});

Deno.test("signed in, one search covers all my spaces and only mine, each result labelled with its space", async () => {
  await using db = await freshDb();
  const { app, deps } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  const bo = await person(app, db, "bo@example.com", "Bo");
  await createWiki(db, { id: "notes", title: "Ana's notes", ownerAccountId: ana.id });
  await seedPages(deps, "notes", { "Herons": "# Herons\n\nA heron stood in the [[Ponds]]." });
  await teamWiki(deps, "lab", bo, [{ person: ana, email: "ana@example.com" }]);
  await seedPages(deps, "lab", { "Survey": "# Survey\n\nWe counted every heron at dawn." });
  await createWiki(db, { id: "secret", title: "Bo's secret", ownerAccountId: bo.id });
  await seedPages(deps, "secret", { "Heron plot": "# Heron plot\n\nThe heron secret." });
  await createWiki(db, { id: "open", title: "Open", visibility: "public", ownerAccountId: bo.id });
  await seedPages(deps, "open", { "Public heron": "# Public heron\n\nA public heron." });

  // The dashboard has the box; a wiki's search page offers the wider scope.
  const dashboard = await html(await ana.get("/account"), 200);
  assert.match(dashboard, /<form role="search" method="get" action="\/account\/search"/);
  assert.match(dashboard, /data-suggest="\/account\/search\/suggest"/);
  assert.match(
    await html(await ana.get("/w/notes/-/search?q=heron"), 200),
    /href="\/account\/search\?q=heron"/,
  );

  const page = await html(await ana.get("/account/search?q=heron"), 200);
  const list = /<ol class="results">([\s\S]*?)<\/ol>/.exec(page)![1]!;
  const items = list.split("<li").slice(1);
  const found = items.map((
    li,
  ) => [/<a href="([^"]+)"/.exec(li)![1], /<p class="hint">([^·]*) ·/.exec(li)![1]]);
  assert.deepEqual(found.map(([href]) => href!.split("#")[0]).sort(), [
    "/w/lab/Survey",
    "/w/notes/Herons",
  ]);
  assert.deepEqual(
    Object.fromEntries(found.map(([href, space]) => [href!.split("/")[2], space])),
    { notes: "Ana&#39;s notes", lab: "lab" },
  );
  assert.doesNotMatch(page, /secret|Public heron/);

  const { results } = await (await ana.get("/account/search/suggest?q=heron")).json() as {
    results: (Suggestion & { space: string })[];
  };
  assert.deepEqual(results.map((r) => r.space).sort(), ["Ana's notes", "lab"]);
  assert.ok(results.every((r) => r.snippet && !/\[\[/.test(r.snippet)), JSON.stringify(results));

  // Her access ends with the team, and her search with it.
  await leaveTeam(db, ana.id, "lab-team");
  const after = await html(await ana.get("/account/search?q=heron"), 200);
  assert.doesNotMatch(after, /\/w\/lab\//);
  assert.match(after, /\/w\/notes\/Herons/);

  // Signed out: to sign in, and back here after; nothing is searched.
  const anonymous = await app.request("/account/search?q=heron");
  assert.equal(anonymous.status, 303);
  assert.equal(anonymous.headers.get("location"), "/signin?next=%2Faccount%2Fsearch%3Fq%3Dheron");
  assert.equal((await app.request("/account/search/suggest?q=heron")).status, 303);
  // An empty query is the form alone; an overlong one is a 400 page that says so.
  assert.doesNotMatch(await html(await ana.get("/account/search?q="), 200), /class="results"/);
  const long = await ana.get(`/account/search?q=${"heron ".repeat(300)}`);
  assert.match(await html(long, 400), /over 1000 characters/);
});
