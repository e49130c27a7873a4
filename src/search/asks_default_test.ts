import assert from "node:assert/strict";
import { asksForDefault, statesDefault } from "./asks_default.ts";

Deno.test("asksForDefault reads the ways a question asks what is set when nothing is", () => {
  for (
    const q of [
      "How many exemplars can the store hold by default?",
      "What's the default scrape timeout?",
      "Which address does the server bind to out of the box?",
      "Where are step logs stored unless configured otherwise?",
      "What user id does the container run as unless told otherwise?",
      "Which port is the web server on unless we change it?",
      "What de-duplication window does a new stream get if we don't set one?",
      "Which database does it use when I don’t configure one?",
      "How long does a web metric wait if no timeout is set?",
      "How many workflows does one agent run if I configure nothing?",
      "When does the classifier retrain itself if we leave the schedule alone?",
    ]
  ) assert.ok(asksForDefault(q), q);
  for (
    const q of [
      "Can remote write use zstd compression instead of the default?",
      "Can the analysis jobs run in a namespace other than the default one?",
      "How do I check the mailboxes for new mail?",
      "Leave the room and turn off the lights",
    ]
  ) assert.ok(!asksForDefault(q), q);
});

Deno.test("statesDefault finds the word in a passage, not in another word", () => {
  assert.ok(statesDefault("The port. Defaults to 8000."));
  assert.ok(statesDefault("[ max_exemplars: <int> | default = 100000 ]"));
  assert.ok(!statesDefault("Read by the defaulter."));
});
