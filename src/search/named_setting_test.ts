import assert from "node:assert/strict";
import { namesSetting, settingParts } from "./named_setting.ts";
import { tokenize } from "../text/terms.ts";

Deno.test("settingParts reads a setting's heading without the form of its value", () => {
  assert.deepEqual(settingParts("`PAPERLESS_OCR_LANGUAGE=<lang>`"), [
    "paperless",
    "ocr",
    "language",
  ]);
  assert.deepEqual(settingParts("`--storage.tsdb.path`"), ["storage", "tsdb", "path"]);
  assert.equal(settingParts("OCR settings"), null);
});

Deno.test("a query names a setting when its parts after the shared prefix stand in a row as written", () => {
  const words = tokenize(
    "Which setting picks the OCR language, and what is it if we never set it?",
  );
  const prefixes = new Set(["paperless"]);
  assert.equal(namesSetting(words, "`PAPERLESS_OCR_LANGUAGE=<lang>`", prefixes), true);
  // "languages" is not "language" as written, though both stem alike.
  assert.equal(namesSetting(words, "`PAPERLESS_OCR_LANGUAGES=<list>`", prefixes), false);
  // One part after the prefix ("port") is in too many questions to name a setting.
  const port = tokenize("Which port does paperless listen on?");
  assert.equal(namesSetting(port, "`PAPERLESS_PORT=<port>`", prefixes), false);
  // Without a prefix shared by the page's settings, every part is the name.
  assert.equal(namesSetting(tokenize("what log level"), "`LOG_LEVEL`", new Set()), true);
  assert.equal(namesSetting(tokenize("what level of log"), "`LOG_LEVEL`", new Set()), false);
});
