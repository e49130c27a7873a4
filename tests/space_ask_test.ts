import assert from "node:assert/strict";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb } from "./helpers.ts";
import { html, person, seedPages, spaceApp } from "./space_helpers.ts";
import type { Db } from "../src/db/db.ts";

/** A private wiki of Ana's with a page on herons: where they nest, what they eat. */
async function birds(db: Db) {
  const { app, deps } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, {
    id: "birds",
    title: "Birds",
    visibility: "private",
    ownerAccountId: ana.id,
  });
  await seedPages(deps, "birds", {
    "Herons": "# Herons\n\n## Nesting\n\nThe grey heron nests in tall trees near water, " +
      "in colonies called heronries.\n\n## Food\n\nHerons eat fish and frogs.\n",
  });
  return { app, ana };
}

Deno.test("GET /w/<id>/-/ask answers with citations that link to the section, and says plainly when the wiki cannot answer", async () => {
  await using db = await freshDb();
  const { app, ana } = await birds(db);

  // The Ask button sits beside Search on every page of the wiki.
  const home = await html(await ana.get("/w/birds"), 200);
  assert.match(home, /<button type="submit" class="secondary" formaction="\/w\/birds\/-\/ask">/);

  const asked = await html(await ana.get("/w/birds/-/ask?q=Where+do+grey+herons+nest%3F"), 200);
  assert.match(asked, /<h2 id="answer-heading">Where do grey herons nest\?<\/h2>/);
  assert.match(asked, /class="coverage (supported|partial)"/);
  assert.match(asked, /<a href="#cite-1">\[1\]<\/a>/, "the marker links to its source");
  assert.match(
    asked,
    /<li id="cite-1" value="1"><a href="\/w\/birds\/Herons#nesting">Herons &gt; Nesting<\/a>/,
  );
  assert.match(asked, /<blockquote><p>[^<]*nests in tall trees/);

  const unknown = await html(await ana.get("/w/birds/-/ask?q=What+is+the+price+of+copper%3F"), 200);
  assert.match(unknown, /Not answered: the wiki does not cover this yet/);
  assert.match(unknown, /Where the wiki is thin/);
  assert.match(
    unknown,
    /<a href="\/w\/birds\/-\/new\?path=Price\+copper">Write this page<\/a>/,
    "the editor opens with the question's words as the title",
  );

  // The space's access rules hold: signed out, sign in first; another person finds nothing.
  // (A sign-in redirect or a 404 page, as the web app answers signed-out visitors.)
  const anonymous = await app.request("/w/birds/-/ask?q=herons");
  assert.ok([303, 404].includes(anonymous.status), String(anonymous.status));
  assert.doesNotMatch(await anonymous.text(), /heronries/);
  const bo = await person(app, db, "bo@example.com", "Bo");
  const other = await html(await bo.get("/w/birds/-/ask?q=herons"), 404);
  assert.doesNotMatch(other, /heronries/);
  const empty = await html(await ana.get("/w/birds/-/ask"), 200);
  assert.match(empty, /Type a question/);
  const long = await html(await ana.get(`/w/birds/-/ask?q=${"a".repeat(2100)}`), 400);
  assert.match(long, /over 2000 characters/);
});

Deno.test("GET /w/<id>/-/ask: a question's part the wiki does not answer is named, and its Write link is titled with that part", async () => {
  await using db = await freshDb();
  const { ana } = await birds(db);
  const q = "Where do grey herons nest, and do they migrate south in winter?";
  const asked = await html(await ana.get(`/w/birds/-/ask?q=${encodeURIComponent(q)}`), 200);
  assert.match(asked, /class="coverage partial"/);
  assert.match(asked, /nests in tall trees/);
  assert.match(
    asked,
    /The wiki does not answer this part of the question: &quot;do they migrate south in winter\?&quot; <a href="\/w\/birds\/-\/new\?path=Migrate\+south\+winter">Write this page<\/a>/,
  );
  // The words of that part are said by its note, not again one by one.
  assert.doesNotMatch(asked, /No retrieved passage mentions/);
});
