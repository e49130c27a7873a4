import assert from "node:assert/strict";
import { writePage } from "../src/pages/write_page.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, testApp } from "./helpers.ts";

const by = { source: "test" };

type Found = { results: { page: string; section: string | null }[] };

// A field's section says in its own words what the question asks.
const bluegreen = `# BlueGreen Deployment Strategy

## previewReplicaCount

The number of pods the preview stack runs until it is promoted.

## scaleDownDelaySeconds

Seconds to wait after the switch before the previous ReplicaSet goes away. Defaults to 30.
`;

// A concepts page whose section is headed by a compound that has an identifier's shape.
const concepts = `# Concepts

## Blue-Green

Two identical environments run side by side, and traffic switches from one to the other at once.

## Canary

A few users get the new version first.
`;

Deno.test('search does not read a heading of hyphenated words ("Blue-Green") as a setting the question names', async () => {
  await using db = await freshDb();
  const { app, deps } = testApp(db);
  await createWiki(db, { id: "docs", visibility: "public" });
  await writePage(deps, { wikiId: "docs", path: "bluegreen", markdown: bluegreen }, by);
  await writePage(deps, { wikiId: "docs", path: "concepts", markdown: concepts }, by);
  const top = async (q: string) => {
    const res = await app.request(`/api/v1/public/wikis/docs/search?q=${encodeURIComponent(q)}`);
    assert.equal(res.status, 200);
    return ((await res.json()) as Found).results[0];
  };
  // Every word of the question but "blue-green" is the field's section's: the concepts section
  // called Blue-Green is not what it names.
  const found = await top(
    "After a blue-green switch, how long until the previous ReplicaSet goes away?",
  );
  assert.equal(found?.section, "BlueGreen Deployment Strategy > scaleDownDelaySeconds");
  // Asked about blue-green deployments alone, the concepts section still comes first.
  assert.equal((await top("blue-green"))?.section, "Concepts > Blue-Green");
});
