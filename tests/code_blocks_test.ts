import assert from "node:assert/strict";
import { searchWikis } from "../src/search/search_wikis.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb } from "./helpers.ts";
import { html, person, seedPages, spaceApp } from "./space_helpers.ts";

// Code blocks are highlighted on the server; callout and tab syntax of docs tools is never
// indexed (search finds the words of a callout, not its markers). PGlite, or DATABASE_URL.

const PAGE = `# Install

\`\`\`ts
const port = 8000; // the default
\`\`\`

\`\`\`
plain <b>text</b>
\`\`\`

{% hint style="warning" %}
Back up the database first.
{% endhint %}

:::note Zebra
Docusaurus notes are fine.
:::

!!! tip "Quokka"
    MkDocs tips too.

{% tabs %}
{% tab title="Linux" %}
apt-get install it.
{% endtab %}
{% endtabs %}
`;

Deno.test("a page's code is highlighted on the server, its text escaped, unknown languages plain", async () => {
  await using db = await freshDb();
  const { app, deps } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "kb", visibility: "public", ownerAccountId: ana.id });
  await seedPages(deps, "kb", { "Install": PAGE });
  const page = await html(await app.request("/w/kb/Install"), 200);
  assert.match(
    page,
    /<pre><code class="language-ts"><span class="hljs-keyword">const<\/span> port = <span class="hljs-number">8000<\/span>; <span class="hljs-comment">\/\/ the default<\/span>/,
  );
  assert.match(page, /<pre><code>plain &lt;b&gt;text&lt;\/b&gt;\n<\/code><\/pre>/);
  assert.match(page, /<script src="\/assets\/copy.js" defer><\/script>/);
});

Deno.test("search never indexes callout or tab markers, only their words", async () => {
  await using db = await freshDb();
  const { app, deps } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "kb", visibility: "public", ownerAccountId: ana.id });
  await seedPages(deps, "kb", { "Install": PAGE });
  const hits = async (query: string) =>
    (await searchWikis(deps, ["kb"], { query, limit: 5 })).results;
  // ("Tab: Linux" is how the text names a tab: "tab" is a word of it, as "note" and "tip".)
  for (const marker of ["endhint", "endtabs", "hint style", "!!!"]) {
    const found = await hits(marker);
    for (const r of found) {
      assert.doesNotMatch(r.snippet, /\{%|%\}|:::|!!!|endhint|endtab/, `${marker}: ${r.snippet}`);
    }
    if (/^[a-z ]+$/.test(marker) && marker !== "hint style") {
      assert.deepEqual(found, [], `"${marker}" is syntax, not a word of the page`);
    }
  }
  const backup = await hits("back up the database");
  assert.equal(backup[0]?.title, "Install");
  assert.match(backup[0]!.snippet, /Warning Back up the database first\./);
  assert.equal((await hits("quokka"))[0]?.title, "Install", "a callout's title is text");
});
