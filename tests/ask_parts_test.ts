import assert from "node:assert/strict";
import type { Answer } from "../src/ask/ask_schema.ts";
import { askHandbook } from "./ask_handbook.ts";

// A question that asks two things is answered as far as the wiki speaks to each (src/ask/parts.ts):
// through REST, as a program asks.

const HANDBOOK: Record<string, string> = {
  "web-server": "# Web server\n\n## Port\n\nThe web server listens on port 8000 inside the " +
    "container. Set `WEB_PORT` to change the port it listens on.\n",
  "trash": "# Trash\n\nDeleted documents stay in the trash for 30 days before they are removed " +
    "for good. Set `EMPTY_TRASH_DELAY` to keep them longer.\n",
  "archive":
    "# Archive\n\n## Archive copies\n\nBorn-digital PDFs get no archive copy by default, " +
    "while scanned documents do: a born-digital PDF already holds its text. The " +
    "`ARCHIVE_MODE` setting controls which documents get an archive copy.\n",
  "backups": "# Backups\n\nThe exporter writes every document and its metadata to a folder.\n",
};

const partNote = (a: Answer) =>
  a.frontier.find((n) => n.note.startsWith("The wiki does not answer this part"))?.note;

Deno.test("ask: a question in two parts, one the wiki never speaks to, is answered in part", async () => {
  const [port, trash, single] = await askHandbook(HANDBOOK, [
    "What port does the web server listen on, and does it support HTTP/3?",
    "How long do deleted documents stay in the trash, and can the trash be encrypted at rest?",
    "What port does the web server listen on?",
  ]);
  // The part the wiki answers is answered; the other is named, and the verdict says "in part".
  assert.match(port!.answer, /8000/);
  assert.equal(port!.coverage, "partial");
  assert.equal(
    partNote(port!),
    'The wiki does not answer this part of the question: "does it support HTTP/3?"',
  );
  assert.ok(!port!.frontier.some((n) => /No retrieved passage mentions/.test(n.note)));
  // The whole question found nothing for the encryption's sake: its first part, asked alone, did.
  assert.match(trash!.answer, /30 days/);
  assert.equal(trash!.coverage, "partial");
  assert.equal(
    trash!.question,
    "How long do deleted documents stay in the trash, and can the trash be encrypted at rest?",
  );
  assert.match(partNote(trash!) ?? "", /"can the trash be encrypted at rest\?"/);
  // One thing asked: as before.
  assert.equal(single!.coverage, "supported");
  assert.equal(partNote(single!), undefined);
});

Deno.test("ask: a second part asking a judgement or owning no word of its own is not a part apart", async () => {
  const [judged, referring] = await askHandbook(HANDBOOK, [
    "Our bank statements never get an archive copy but born-digital scans do. Is that on purpose, and which setting controls it?",
    "Which setting changes the web server's port, and what is it if we never set it?",
  ]);
  assert.equal(partNote(judged!), undefined, JSON.stringify(judged));
  assert.match(judged!.answer, /ARCHIVE_MODE/);
  assert.equal(partNote(referring!), undefined, JSON.stringify(referring));
  assert.match(referring!.answer, /8000|WEB_PORT/);
});
