import assert from "node:assert/strict";
import type { Db } from "../src/db/db.ts";
import { AppError } from "../src/errors.ts";
import { resolvePageRef } from "../src/pages/read_page.ts";
import { deletePage, renamePage } from "../src/pages/rename_page.ts";
import {
  selectLinksFrom,
  selectLinksTo,
  selectRevision,
  selectRevisions,
} from "../src/pages/store.ts";
import { writePage } from "../src/pages/write_page.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, testApp, testDeps } from "./helpers.ts";

const by = { source: "test" };

async function wikiWith(db: Db, pages: Record<string, string>, id = "w") {
  await createWiki(db, { id, visibility: "public" });
  for (const [path, markdown] of Object.entries(pages)) {
    await writePage(testDeps(db), { wikiId: id, path, markdown }, by);
  }
}

async function outgoing(db: Db, path: string, wikiId = "w") {
  const page = await resolvePageRef(db, wikiId, path);
  return (await selectLinksFrom(db, page.id)).map((l) => [l.target, l.other_path]);
}

async function backlinks(db: Db, path: string, wikiId = "w") {
  const page = await resolvePageRef(db, wikiId, path);
  return (await selectLinksTo(db, page.id)).map((l) => l.other_path);
}

Deno.test("links resolve case-insensitively, with _ as space and by last segment", async () => {
  await using db = await freshDb();
  await wikiWith(db, {
    "Guides/Getting Started": "# Start",
    "Home":
      "[[guides/getting_started]] [[Getting started|go]] [x](Guides/Getting%20Started.md) [[Nowhere]]",
  });
  assert.deepEqual(await outgoing(db, "Home"), [
    ["guides/getting_started", "Guides/Getting Started"],
    ["Getting started", "Guides/Getting Started"],
    ["Guides/Getting Started", "Guides/Getting Started"],
    ["Nowhere", null],
  ]);
});

Deno.test("a page created after the pages that link to it resolves their links", async () => {
  await using db = await freshDb();
  await wikiWith(db, { "A": "[[Later page]]", "B": "see [[later_page#Part]]" });
  assert.deepEqual(await outgoing(db, "A"), [["Later page", null]]);
  await writePage(testDeps(db), { wikiId: "w", path: "Later page", markdown: "# Later" }, by);
  assert.deepEqual(await outgoing(db, "A"), [["Later page", "Later page"]]);
  assert.deepEqual(await outgoing(db, "B"), [["later_page", "Later page"]]);
  assert.deepEqual((await backlinks(db, "Later page")).sort(), ["A", "B"]);
});

Deno.test("a link written from the root of the site the wiki came from reaches its page", async () => {
  // GitBook docs link from the repository's root (`/running-a-nats-service/configuration/…`)
  // while the import started in `running-a-nats-service/`: the page is the longest path that
  // ends the link's, whether it was written before or after the page that links to it.
  await using db = await freshDb();
  await wikiWith(db, {
    "configuration/logging": "# Logging",
    "logging": "# A page named like the last segment only",
    "configuration": "See [logging](/running-a-nats-service/configuration/logging.md), " +
      "[rotation](/running-a-nats-service/configuration/rotation.md#size) and " +
      "[elsewhere](/other/place.md).",
  });
  assert.deepEqual(await outgoing(db, "configuration"), [
    ["running-a-nats-service/configuration/logging", "configuration/logging"],
    ["running-a-nats-service/configuration/rotation", null],
    ["other/place", null],
  ]);
  await writePage(
    testDeps(db),
    { wikiId: "w", path: "configuration/rotation", markdown: "# Rotation" },
    by,
  );
  assert.deepEqual((await outgoing(db, "configuration"))[1], [
    "running-a-nats-service/configuration/rotation",
    "configuration/rotation",
  ]);
  // The rendered page links there too, not to a page "not written yet".
  const html = await (await testApp(db).app.request("/w/w/configuration")).text();
  assert.match(html, /href="\/w\/w\/configuration\/logging"/);
  assert.match(html, /href="\/w\/w\/configuration\/rotation#size"/);
  assert.equal(html.match(/page not written yet/g)?.length, 1);
});

Deno.test("rename rewrites the pages that link to it, so backlinks stay right", async () => {
  await using db = await freshDb();
  await wikiWith(db, {
    "Setup": "# Setup\nSee [[Home]].",
    "Home": "Read [[Setup|the setup]] and [[Setup#Install]].",
    "Guides/Other": "[back](../Setup.md)",
  });
  await renamePage(
    testDeps(db),
    { wikiId: "w", path: "Setup", newPath: "Guides/Installation" },
    by,
  );
  const home = await resolvePageRef(db, "w", "Home");
  assert.equal(
    home.markdown,
    "Read [[Guides/Installation|the setup]] and [[Guides/Installation#Install]].",
  );
  assert.equal(home.revision, 2);
  const other = await resolvePageRef(db, "w", "Guides/Other");
  assert.equal(other.markdown, "[back](Installation.md)");
  assert.deepEqual((await backlinks(db, "Guides/Installation")).sort(), [
    "Guides/Other",
    "Home",
    "Home",
  ]);
  assert.deepEqual(await outgoing(db, "Guides/Installation"), [["Home", "Home"]]);
  await assert.rejects(
    resolvePageRef(db, "w", "Setup"),
    (e: AppError) => e.code === "page_not_found",
  );
});

Deno.test("rename without link updates leaves the old links pointing at a missing page", async () => {
  await using db = await freshDb();
  await wikiWith(db, { "Setup": "# Setup", "Home": "[[Setup]]" });
  await renamePage(testDeps(db), {
    wikiId: "w",
    path: "Setup",
    newPath: "Install",
    updateLinks: false,
  }, by);
  assert.deepEqual(await outgoing(db, "Home"), [["Setup", null]]);
  await assert.rejects(
    renamePage(testDeps(db), { wikiId: "w", path: "Install", newPath: "Home" }, by),
    (e: AppError) => e.code === "page_exists",
  );
});

Deno.test("every revision is kept, through updates, rename and delete", async () => {
  await using db = await freshDb();
  await wikiWith(db, { "Page": "one" });
  const unchanged = await writePage(
    testDeps(db),
    { wikiId: "w", path: "page", markdown: "one" },
    by,
  );
  assert.equal(unchanged.status, "unchanged");
  await writePage(testDeps(db), { wikiId: "w", path: "Page", markdown: "two" }, by);
  await renamePage(testDeps(db), { wikiId: "w", path: "Page", newPath: "Renamed" }, by);
  const page = await resolvePageRef(db, "w", "Renamed");
  await deletePage(testDeps(db), { wikiId: "w", path: "Renamed" }, by);
  const history = await selectRevisions(db, page.id);
  assert.deepEqual(history.map((r) => [r.revision, r.action, r.path]), [
    [4, "delete", "Renamed"],
    [3, "rename", "Renamed"],
    [2, "update", "Page"],
    [1, "create", "Page"],
  ]);
  assert.equal((await selectRevision(db, page.id, 1))!.markdown, "one");
});

Deno.test("deleting a page turns links to it into links to a missing page", async () => {
  await using db = await freshDb();
  await wikiWith(db, {
    "Target": "x",
    "Guides/Target": "y",
    "Home": "[[Target]] [[Guides/Target]]",
  });
  await deletePage(testDeps(db), { wikiId: "w", path: "Target" }, by);
  // [[Target]] now finds Guides/Target by its last segment.
  assert.deepEqual(await outgoing(db, "Home"), [["Target", "Guides/Target"], [
    "Guides/Target",
    "Guides/Target",
  ]]);
  await deletePage(testDeps(db), { wikiId: "w", path: "Guides/Target" }, by);
  assert.deepEqual(await outgoing(db, "Home"), [["Target", null], ["Guides/Target", null]]);
});

Deno.test("two concurrent writers from one revision: one wins, the other gets a conflict", async () => {
  await using db = await freshDb();
  await wikiWith(db, { "Page": "base" });
  const results = await Promise.allSettled([
    writePage(testDeps(db), { wikiId: "w", path: "Page", markdown: "from A", baseRevision: 1 }, by),
    writePage(testDeps(db), { wikiId: "w", path: "Page", markdown: "from B", baseRevision: 1 }, by),
  ]);
  const ok = results.filter((r) => r.status === "fulfilled");
  const failed = results.filter((r) => r.status === "rejected") as PromiseRejectedResult[];
  assert.equal(ok.length, 1);
  assert.equal(failed.length, 1);
  assert.equal((failed[0]!.reason as AppError).code, "revision_conflict");
  assert.equal((failed[0]!.reason as AppError).extra.current_revision, 2);
  const page = await resolvePageRef(db, "w", "Page");
  assert.equal(page.revision, 2);
  assert.equal(
    page.markdown,
    (ok[0] as PromiseFulfilledResult<{ page: { markdown: string } }>).value.page.markdown,
  );
});

Deno.test("two concurrent writers without a base revision: both revisions are kept", async () => {
  await using db = await freshDb();
  await createWiki(db, { id: "w" });
  await Promise.all([
    writePage(testDeps(db), { wikiId: "w", path: "New", markdown: "from A" }, by),
    writePage(testDeps(db), { wikiId: "w", path: "new", markdown: "from B" }, by),
  ]);
  const page = await resolvePageRef(db, "w", "New");
  assert.equal(page.revision, 2);
  const history = await selectRevisions(db, page.id);
  const bodies = await Promise.all(
    history.map(async (r) => (await selectRevision(db, page.id, r.revision))!.markdown),
  );
  assert.deepEqual(bodies.sort(), ["from A", "from B"]);
});

Deno.test("a page is found by path or id, and a miss suggests close paths", async () => {
  await using db = await freshDb();
  await wikiWith(db, { "Guides/Setup": "x" });
  const page = await resolvePageRef(db, "w", "guides/setup.md");
  assert.equal((await resolvePageRef(db, "w", String(page.id))).path, "Guides/Setup");
  await assert.rejects(resolvePageRef(db, "w", "Setup"), (e: AppError) => {
    assert.equal(e.code, "page_not_found");
    assert.deepEqual(e.extra.suggestions, ["Guides/Setup"]);
    return true;
  });
});
