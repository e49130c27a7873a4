import assert from "node:assert/strict";
import { formStems, isFormLexeme, subjectOf } from "./form_words.ts";
import { parseQuestion } from "./question.ts";

Deno.test("a question's form words: light verbs, the word after 'how', fillers", () => {
  const q = parseQuestion("How long do we keep the server's log, and how do I make it rotate?");
  assert.deepEqual([...formStems(q)].sort(), ["keep", "long", "mak"]);
  assert.deepEqual(subjectOf(q).asked, ["server", "log", "rotat"]);
  const filler = parseQuestion("How do we make a particular user usable only from WebSocket?");
  assert.deepEqual(subjectOf(filler).asked, ["user", "usabl", "websocket"]);
  // "long" is a word of the subject when no "how" asks with it.
  const long = parseQuestion("Which long options does the CLI take?");
  assert.deepEqual([...formStems(long)], ["tak"]);
});

Deno.test("a question of form words only keeps them", () => {
  const q = parseQuestion("How can I make it happen?");
  assert.equal(subjectOf(q), q);
});

Deno.test("a search lexeme stands for a form word only when no other word of the question has it", () => {
  const q = parseQuestion("How many keepalive pings does the server keep sending?");
  assert.equal(isFormLexeme(q, "mani"), true);
  assert.equal(isFormLexeme(q, "keep"), false); // "keepalive" starts with it too
  assert.equal(isFormLexeme(q, "server"), false);
});

Deno.test("half of a contraction is a form lexeme, the question's words are not", () => {
  const q = parseQuestion("We'd like the preview stack to run one pod; it doesn't need more");
  assert.equal(isFormLexeme(q, "d"), true);
  assert.equal(isFormLexeme(q, "doesn"), true);
  assert.equal(isFormLexeme(q, "preview"), false);
  assert.deepEqual(q.halves, ["d", "doesn", "t"]);
  assert.ok(!q.words.includes("d") && q.words.includes("does") && q.words.includes("not"));
});

Deno.test("the words of a condition asking for the default are form words, the thing it names is not", () => {
  const alone = parseQuestion("When does the classifier retrain if we leave the schedule alone?");
  assert.deepEqual([...formStems(alone)].sort(), ["alon", "leav"]);
  assert.ok(subjectOf(alone).asked.includes("schedul"));
  const unset = parseQuestion("How long does a web metric wait if no timeout is set?");
  assert.deepEqual([...formStems(unset)].sort(), ["long", "set"]);
  assert.ok(subjectOf(unset).asked.includes("timeout"));
  const box = parseQuestion("Which port does it listen on out of the box, unless told otherwise?");
  assert.deepEqual([...formStems(box)].sort(), ["box", "otherwis", "told", "unless"]);
  const out = parseQuestion("If I leave out the resolution in a subquery, what step is used?");
  assert.deepEqual([...formStems(out)], ["leav"]);
  assert.ok(subjectOf(out).asked.includes("resolution"));
  // "leave" that asks for no default is a word of the subject.
  assert.deepEqual([...formStems(parseQuestion("How do I leave the cluster?"))], []);
});
