import assert from "node:assert/strict";
import { phrasalForm, relatedForm } from "./related_forms.ts";

Deno.test("relatedForm gives the noun of an adjective as it stands and of a verb in any form", () => {
  assert.equal(relatedForm("wide"), "width");
  assert.equal(relatedForm("retained"), "retention");
  assert.equal(relatedForm("applies"), "application");
  assert.equal(relatedForm("permitted"), "permission");
  assert.equal(relatedForm("stored"), "storage");
});

Deno.test("relatedForm leaves nouns, comparatives and other words alone", () => {
  for (const w of ["width", "retention", "higher", "long", "app", "consumer", "user"]) {
    assert.equal(relatedForm(w), null, w);
  }
});

Deno.test("phrasalForm gives the one verb of switching or turning on and off", () => {
  assert.equal(phrasalForm("switched", "on"), "enable");
  assert.equal(phrasalForm("turn", "off"), "disable");
  assert.equal(phrasalForm("turns", "on"), "enable");
  assert.equal(phrasalForm("switch", "to"), null);
  assert.equal(phrasalForm("run", "on"), null);
});
