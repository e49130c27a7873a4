import assert from "node:assert/strict";
import type { Answer } from "../src/ask/ask_schema.ts";
import type { SearchOutput } from "../src/search/search_wikis.ts";
import { writePage } from "../src/pages/write_page.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, testApp } from "./helpers.ts";

// A question asking for a default is answered where the default is stated (issue #28): the
// setting's reference section, not the prose about the same thing on another page. Through
// REST, as an assistant asks.

const administration = `# Administration

## Fetching e-mail

Paperless checks the mailboxes of your mail accounts for new mail on its own, and consumes the
attachments of the mail it finds there. To check the mailboxes for new mail right now, run the
\`mail_fetcher\` command.

## Backups

Export the documents with the \`document_exporter\` command before an upgrade.
`;

const configuration = `# Configuration

## \`PAPERLESS_EMAIL_TASK_CRON=<cron expression>\`

How often paperless checks for new mail: a cron expression. Defaults to \`*/10 * * * *\`,
every ten minutes.

## \`PAPERLESS_PORT=<port>\`

The port the web server listens on. Defaults to 8000.
`;

type Result = SearchOutput["results"][number];

Deno.test("a question asking for a default finds the section that states it, and ask cites it", async () => {
  await using db = await freshDb();
  const { app, deps } = testApp(db);
  await createWiki(db, { id: "docs", visibility: "public" });
  for (const [path, markdown] of Object.entries({ administration, configuration })) {
    await writePage(deps, { wikiId: "docs", path, markdown }, { source: "test" });
  }
  const top = async (q: string): Promise<Result> => {
    const res = await app.request(`/api/v1/public/wikis/docs/search?q=${encodeURIComponent(q)}`);
    assert.equal(res.status, 200);
    return ((await res.json()) as SearchOutput).results[0]!;
  };
  const asked = "How often does paperless check the mailboxes for new mail out of the box?";
  const found = await top(asked);
  assert.equal(found.section, "Configuration > `PAPERLESS_EMAIL_TASK_CRON=<cron expression>`");
  const res = await app.request("/api/v1/public/wikis/docs/ask", {
    method: "POST",
    body: JSON.stringify({ question: asked }),
    headers: { "Content-Type": "application/json" },
  });
  assert.equal(res.status, 200);
  const answer = (await res.json()) as Answer;
  assert.equal(answer.citations[0]?.section, found.section, answer.answer);
  assert.match(answer.answer, /every ten minutes/);
  // Asked without a default, the prose about checking the mailboxes stays first.
  const how = await top("How do I check the mailboxes for new mail?");
  assert.equal(how.section, "Administration > Fetching e-mail");
});
