import assert from "node:assert/strict";
import { renderMarkdown } from "../src/spaces/render_markdown.ts";
import { ask, docsWiki, search } from "./docs_wiki.ts";

// A settings reference written as Nautobot's is (docs/configuration/optional-settings.md at
// v1.6.32, Apache-2.0; eval/nautobot keeps the whole page): a `##` heading a setting, its
// `Default:` line, its text, a `!!! warning`, a `+++ 1.2.0` version note (the
// mkdocs-version-annotations plugin) that several settings repeat word for word, and `---`
// rules between the entries. Through REST, as an assistant asks.

const DYNAMIC = "+++ 1.2.0\n    If you do not set a value for this setting in your " +
  "`nautobot_config.py`, it can be configured dynamically by an admin user via the Nautobot " +
  "Admin UI. If you do have a value for this setting in `nautobot_config.py`, it will " +
  "override any dynamically configured value.";

const SETTINGS = [
  "# Optional Configuration Settings",
  "## BANNER_LOGIN",
  'Default: `""` (Empty string)',
  "Environment Variable: `NAUTOBOT_BANNER_LOGIN`",
  "This defines custom content to be displayed on the login page above the login form.",
  DYNAMIC,
  "---",
  "## CHANGELOG_RETENTION",
  "Default: `90`",
  "The number of days to retain logged changes (object creations, updates, and deletions). " +
  "Set this to `0` to retain changes in the database indefinitely.",
  "!!! warning\n    If enabling indefinite changelog retention, it is recommended to " +
  "periodically delete old entries. Otherwise, the database may eventually exceed capacity.",
  DYNAMIC,
  "---",
  "## CELERY_WORKER_PROMETHEUS_PORTS",
  "+++ 1.5.10",
  "Default: `[]` (disabled)",
  "Environment Variable: `NAUTOBOT_CELERY_WORKER_PROMETHEUS_PORTS`",
  "Ports for Prometheus metric HTTP server running on the celery worker(s).",
  "---",
  "## CONFIG_CONTEXT_DYNAMIC_GROUPS_ENABLED",
  "Default: `False`",
  "If set to `True`, config contexts can be assigned to dynamic groups.",
].join("\n\n") + "\n";

/** The settings page beside a page on nothing; asked, searched and read as a user would. */
async function settingsWiki() {
  const { db, app } = await docsWiki({
    "configuration/optional-settings": SETTINGS,
    "other": "# Other\n\nNothing here.",
  });
  const page = async (url: string): Promise<string> => {
    const res = await app.request(url);
    assert.equal(res.status, 200);
    return await res.text();
  };
  return {
    db,
    ask: (question: string) => ask(app, "docs", question),
    search: (q: string) => search(app, "docs", q),
    page,
  };
}

/** The offsets of a setting's entry in the page: its heading to the next rule. */
function entry(name: string): [number, number] {
  const start = SETTINGS.indexOf(`## ${name}\n`);
  return [start, SETTINGS.indexOf("\n---\n", start)];
}

Deno.test("a setting's entry with a warning and a version note is answered whole, its default first", async () => {
  const { db, ask } = await settingsWiki();
  await using _db = db;
  const answer = await ask("What is the default value of CHANGELOG_RETENTION?");
  assert.equal(answer.coverage, "supported", answer.answer);
  assert.match(answer.answer, /^Default: `90`\.\n\nThe number of days to retain/, answer.answer);
  // Each block of the entry a paragraph of its own; the format's markers are not the text.
  assert.match(answer.answer, /\n\nIf enabling indefinite changelog retention/);
  assert.doesNotMatch(answer.answer, /\+\+\+|!!!/, answer.answer);
  assert.equal(answer.citations.length, 1, answer.answer);
  const [cited] = answer.citations;
  assert.equal(cited!.section, "Optional Configuration Settings > CHANGELOG_RETENTION");
  assert.equal(SETTINGS.slice(cited!.start, cited!.end), cited!.quote);
  const [start, end] = entry("CHANGELOG_RETENTION");
  assert.ok(cited!.start > start && cited!.end <= end, `${cited!.start}–${cited!.end}`);
});

Deno.test("a note several settings repeat is quoted from the setting asked about, not the first that has it", async () => {
  const { db, ask } = await settingsWiki();
  await using _db = db;
  const answer = await ask(
    "Can an admin change the changelog retention in the Admin UI when nautobot_config.py sets it?",
  );
  const [start, end] = entry("CHANGELOG_RETENTION");
  for (const c of answer.citations) {
    assert.equal(SETTINGS.slice(c.start, c.end), c.quote);
    if (c.quote.includes("configured dynamically")) {
      assert.ok(c.start > start && c.end <= end, `quoted at ${c.start}, entry ${start}–${end}`);
    }
  }
  assert.ok(
    answer.citations.some((c) => c.quote.includes("configured dynamically")),
    answer.answer,
  );
});

Deno.test("a version note standing alone is no unit: neither answer nor snippet opens with it", async () => {
  const { db, ask, search } = await settingsWiki();
  await using _db = db;
  const answer = await ask("Which ports does the celery worker's Prometheus metrics server use?");
  assert.equal(
    answer.citations[0]!.section,
    "Optional Configuration Settings > CELERY_WORKER_PROMETHEUS_PORTS",
  );
  assert.doesNotMatch(answer.answer, /\+\+\+|1\.5\.10/, answer.answer);
  const results = await search("CELERY_WORKER_PROMETHEUS_PORTS");
  assert.ok(results.length > 0);
  for (const r of results) assert.doesNotMatch(r.snippet, /\+\+\+|\+\/-/, r.snippet);
});

Deno.test("a version note renders as the plugin shows it: a callout titled with its version", () => {
  const html = renderMarkdown(SETTINGS + "\n+/- 1.4.0\n    Now read at start-up.\n", {
    wikiId: "w",
    path: "configuration/optional-settings",
    targets: new Map(),
    canCreate: false,
  });
  assert.match(
    html,
    /<p class="callout-title">Added in version 1\.2\.0<\/p><div class="callout-body">\s*<p>If you do not set/,
  );
  assert.match(html, /<p class="callout-title">Added in version 1\.5\.10<\/p>/);
  assert.match(html, /<p class="callout-title">Changed in version 1\.4\.0<\/p>/);
  assert.doesNotMatch(html, /\+\+\+|\+\/-/);
  // A rule between entries stays a rule.
  assert.match(html, /<hr/);
});

Deno.test("the Ask page shows a source as its page does: code spans, the warning and the version note as callouts", async () => {
  const { db, page } = await settingsWiki();
  await using _db = db;
  const html = await page(
    `/w/docs/-/ask?q=${encodeURIComponent("What is the default value of CHANGELOG_RETENTION?")}`,
  );
  const sources = html.slice(html.indexOf('<ol class="citations">'));
  assert.match(sources, /<blockquote><p>Default: <code>90<\/code><\/p>/);
  assert.match(sources, /<aside class="callout callout-warning"/);
  assert.match(sources, /<p class="callout-title">Added in version 1\.2\.0<\/p>/);
  assert.doesNotMatch(sources.slice(0, sources.indexOf("</ol>")), /`|!!!|\+\+\+/);
});
