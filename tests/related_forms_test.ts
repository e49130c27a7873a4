import assert from "node:assert/strict";
import { ask, docsWiki, evalPages, search } from "./docs_wiki.ts";

// Reference documentation names a setting by its noun (`…_UNIT_WIDTH`, `…_RETENTION`); the
// question asks with the adjective or the verb ("how wide", "retained"), which PostgreSQL's
// Snowball stemmer never meets with the noun. docs/retrieval.md, "Related forms in queries".
const settings = `# Optional settings

## RACK_ELEVATION_DEFAULT_UNIT_HEIGHT

Default: \`22\`

Default height (in pixels) of a unit within a rack elevation. For best results, this should be
approximately one tenth of \`RACK_ELEVATION_DEFAULT_UNIT_WIDTH\`.

## RACK_ELEVATION_DEFAULT_UNIT_WIDTH

Default: \`220\`

Default width (in pixels) of a unit within a rack elevation.

## CHANGELOG_RETENTION

Default: \`90\`

The number of days a change is logged for, after which it is deleted.

## SESSION_COOKIE_AGE

Default: \`1209600\`

The age of session cookies, in seconds. Changes to it take effect at the next login.
`;

Deno.test('search and ask meet "how wide" with the setting named for its width', async () => {
  const { db, app } = await docsWiki({ "configuration/optional-settings": settings });
  await using _ = db;
  const question = "Rack elevations are drawn too narrow for our long hostnames. " +
    "How wide is a rack unit drawn by default?";
  const found = await search(app, "docs", question);
  assert.equal(found[0]?.section, "Optional settings > RACK_ELEVATION_DEFAULT_UNIT_WIDTH");
  const answer = await ask(app, "docs", question);
  assert.match(answer.answer, /220/);
  assert.doesNotMatch(answer.answer, /`22`/);
  assert.equal(
    answer.citations[0]?.section,
    "Optional settings > RACK_ELEVATION_DEFAULT_UNIT_WIDTH",
  );
  // The quote says "width": no note may say that nothing mentions "wide".
  for (const n of answer.frontier) assert.doesNotMatch(n.note, /"wide"/);
});

Deno.test('search and ask meet "retained" with the setting named for its retention', async () => {
  const { db, app } = await docsWiki({ "configuration/optional-settings": settings });
  await using _ = db;
  const question = "For how many days are changes retained?";
  const found = await search(app, "docs", question);
  assert.equal(found[0]?.section, "Optional settings > CHANGELOG_RETENTION");
  const answer = await ask(app, "docs", question);
  assert.match(answer.answer, /90/);
  for (const n of answer.frontier) assert.doesNotMatch(n.note, /"retained"/);
});

// A setting switched on by its `…_ENABLED` name, among Nautobot's optional settings (eval/nautobot,
// Apache-2.0), one of which shares the question's rarer word: `CELERY_WORKER_PROMETHEUS_PORTS`.
Deno.test('search and ask meet "switched on" with the setting named ENABLED', async () => {
  const nautobot = await evalPages("nautobot");
  const { db, app } = await docsWiki({
    "configuration/optional-settings": nautobot["configuration/optional-settings"]!,
    "additional-features/prometheus-metrics": nautobot["additional-features/prometheus-metrics"]!,
  });
  await using _ = db;
  const question = "Prometheus scraping /metrics gets nothing useful. What has to be switched on?";
  const found = await search(app, "docs", question);
  assert.match(found[0]?.section ?? "", /> METRICS_ENABLED$/);
  const answer = await ask(app, "docs", question);
  assert.match(answer.citations[0]?.section ?? "", /> METRICS_ENABLED$/, answer.answer);
});
