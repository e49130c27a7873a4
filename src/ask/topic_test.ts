import assert from "node:assert/strict";
import { listsNames } from "./sentence_kinds.ts";
import { definesTopic, definitionTopic, headingSubject } from "./topic.ts";

Deno.test("a question asking what something is has that thing as its topic; others have none", () => {
  assert.deepEqual(definitionTopic("How do tokens work?"), ["token"]);
  assert.deepEqual(definitionTopic("What is a space?"), ["spac"]);
  assert.deepEqual(
    definitionTopic("What is max_tokens for?"),
    definitionTopic("What is max_tokens"),
  );
  assert.equal(definitionTopic("How do I create a space token?"), null);
  assert.equal(
    definitionTopic("What is the name of the river that runs through the old city?"),
    null,
  );
});

Deno.test("a definition opens with its topic as the subject of 'is' or 'are'", () => {
  // Topics are stems: a final "e" goes ("space" and "spaced" meet at "spac").
  assert.ok(definesTopic("A space is a wiki that belongs to an account or a team.", ["spac"]));
  assert.ok(!definesTopic("Spaces (private wikis) are owned by teams.", ["spac"]));
  assert.ok(
    !definesTopic("The space is fixed by the token: tools take no space parameter.", ["spac"]),
  );
  assert.ok(!definesTopic("While a space is connected, the editor refuses changes.", ["spac"]));
  assert.ok(!definesTopic("A space token is a secret.", ["spac"]));
  assert.ok(!definesTopic("Stromules are very rare in chloroplasts.", ["stromul"]));
  assert.ok(
    definesTopic("European Union law is a body of treaties.", ["european", "union", "law"]),
  );
});

Deno.test("a heading written 'name: what it does' names its subject", () => {
  assert.deepEqual(headingSubject("Tools > ask: get a cited answer"), ["ask"]);
  assert.equal(headingSubject("Tokens > Rate limits"), null);
  assert.equal(headingSubject("Tools"), null);
});

Deno.test("a table row of names alone is not an answer; a row with a description is", () => {
  assert.ok(
    listsNames(
      "| `create-space`, `create-token`, `list-tokens`, `revoke-token` | See [[Tokens]] |",
    ),
  );
  assert.ok(!listsNames("| `PORT` | `8000` | Port the HTTP server listens on |"));
});

Deno.test("a plural definition: 'are' then a plural noun going on with a preposition", () => {
  // docsqa-dev: "What is an exemplar?" is answered by "Exemplars are references to data…".
  assert.ok(
    definesTopic("Exemplars are references to data outside of the MetricSet.", ["exemplar"]),
  );
  assert.ok(definesTopic("Teams are groups of users that share spaces.", ["team"]));
  assert.ok(!definesTopic("Exemplars are stored in memory for all series.", ["exemplar"]));
  assert.ok(!definesTopic("Exemplars are dangerous in production.", ["exemplar"]));
  assert.ok(!definesTopic("Exemplars are kept for days.", ["exemplar"]));
});
