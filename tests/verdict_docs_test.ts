import assert from "node:assert/strict";
import type { Hono } from "hono";
import { ask as askIn, docsWiki as wikiOf } from "./docs_wiki.ts";

// The verdict on documentation answers (issue #28, item 3): a small operator's handbook, written
// for this test, asked through REST as an assistant asks.

const PAGES: Record<string, string> = {
  "configuration": "# Configuration\n\nThe server reads one configuration file.\n\n" +
    "## Connection timeouts\n\n" +
    "| Property | Description | Default |\n| --- | --- | --- |\n" +
    '| `ping_interval` | Duration at which pings are sent to clients and routes. | `"2m"` |\n' +
    "| `auth_timeout` | Seconds the server waits for a client to authenticate. | `2` |\n" +
    '| `write_deadline` | Seconds a write to a client may block. | `"10s"` |\n\n' +
    "## Limits\n\n" +
    "| Property | Description | Default |\n| --- | --- | --- |\n" +
    "| `max_payload` | Largest message payload in bytes. | `1MB` |\n" +
    "| `max_connections` | Most client connections the server accepts. | `64K` |\n",
  "logging": "# Logging\n\nThe server writes a log of what it does.\n\n## Log rotation\n\n" +
    "Set `logfile_size_limit` and the server rotates its log file when it reaches that size. " +
    "The old file is kept with a timestamp in its name.\n\n## Timestamps\n\n" +
    "If `-T false` then log entries are not timestamped. Default is true.\n",
  "monitoring": "# Monitoring\n\nThe server serves statistics over HTTP.\n\n## Endpoints\n\n" +
    "The `/varz` endpoint returns general information, such as the server's uptime. " +
    "The `/connz` endpoint lists connections.\n\n## Enabling\n\n" +
    "Set `http_port` to serve the endpoints; the server logs the address.\n",
  "clustering": "# Clustering\n\nServers form a cluster over routes.\n\n## Routes\n\n" +
    "Each server lists the URLs of the others in `routes`, and gossips the rest of the cluster " +
    "to new members.\n\n## Cluster names\n\nEvery server of a cluster sets the same `name`.\n",
};

const docsWiki = (pages: Record<string, string> = PAGES) => wikiOf(pages);
const ask = (app: Hono, question: string) => askIn(app, "docs", question);

Deno.test("an answer from the docs is weighed against the question's subject, not its form words", async () => {
  const { db, app } = await docsWiki();
  await using _db = db;
  // "get rid of", "make … keep": the words an operator asks with, which the section that
  // answers does not repeat. Flagged `partial` while the verdict counted them.
  const timestamps = await ask(app, "How do I get rid of the timestamps in the log?");
  assert.match(timestamps.answer, /-T false/);
  assert.equal(timestamps.coverage, "supported", timestamps.answer);
  const rotation = await ask(
    app,
    "How do I make the server keep its log file from growing forever?",
  );
  assert.match(rotation.answer, /logfile_size_limit/);
  assert.equal(rotation.coverage, "supported", rotation.answer);
  // What the docs do not have stays flagged, form words or not.
  for (
    const q of [
      "How do I make the server send its log to syslog?",
      "How do we throttle the connections per client?",
      "Can cluster members discover each other through Consul?",
    ]
  ) {
    const answer = await ask(app, q);
    assert.notEqual(answer.coverage, "supported", `${q}: ${answer.answer}`);
  }
});

Deno.test("an answer from a page titled in front matter with one section is weighed as documentation", async () => {
  // A page whose title is in front matter and whose text has one `##` section (a command's
  // flags, a short how-to) is documentation, not a SQuAD paragraph under its `#` title: it was
  // held to the SQuAD bar with the question's form words counted.
  const { db, app } = await docsWiki({
    ...PAGES,
    "logging": "---\ntitle: Logging\n---\n\nThe server writes a log of what it does.\n\n" +
      "## Log rotation\n\n" +
      "Set `logfile_size_limit` and the server rotates its log file when it reaches that size. " +
      "The old file is kept with a timestamp in its name.\n",
  });
  await using _db = db;
  const rotation = await ask(
    app,
    "How do I make the server keep its log file from growing forever?",
  );
  assert.match(rotation.answer, /logfile_size_limit/);
  assert.equal(rotation.coverage, "supported", rotation.answer);
  const syslog = await ask(app, "How do I make the server send its log to syslog?");
  assert.notEqual(syslog.coverage, "supported", syslog.answer);
});
