import assert from "node:assert/strict";
import { writePage } from "../src/pages/write_page.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, testApp } from "./helpers.ts";

const by = { source: "test" };

type Found = { results: { page: string; section: string | null }[] };

// The section that answers names the thing by its noun, "backup"; the question asks how to
// "back up".
const recovery = `# Disaster recovery

## Account backup

Run \`nats account backup\` to save every stream of the account in one go, with its
configuration and messages, into a directory you can restore from later.

## Stream restore

Restore a saved stream with \`nats stream restore\`.
`;

// Another page: the question's other words, and "back" in a different sense.
const encryption = `# Encryption at rest

## Enabling with existing data

Turning encryption on does not rewrite the streams an account already holds: their data stays
as it was written. To have them encrypted, move the streams of the account to a new server
and move them back, all in one go.
`;

Deno.test('search finds a phrasal verb\'s noun: "back up" finds the Account backup section', async () => {
  await using db = await freshDb();
  const { app, deps } = testApp(db);
  await createWiki(db, { id: "ops", visibility: "public" });
  await writePage(deps, { wikiId: "ops", path: "recovery", markdown: recovery }, by);
  await writePage(deps, { wikiId: "ops", path: "encryption", markdown: encryption }, by);
  const top = async (q: string) => {
    const res = await app.request(`/api/v1/public/wikis/ops/search?q=${encodeURIComponent(q)}`);
    assert.equal(res.status, 200);
    return ((await res.json()) as Found).results[0];
  };
  const found = await top("How can we back up all the streams of our account in one go?");
  assert.equal(found?.page, "recovery");
  assert.equal(found?.section, "Disaster recovery > Account backup");
  // The noun as asked finds it too, and a question without the verb is not sent there.
  assert.equal((await top("account backup"))?.section, "Disaster recovery > Account backup");
  assert.equal((await top("encrypt the streams already held"))?.page, "encryption");
});
