import assert from "node:assert/strict";
import type { Db } from "../src/db/db.ts";
import { deletePage } from "../src/pages/rename_page.ts";
import { shareSpace } from "../src/sharing/shares.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb } from "./helpers.ts";
import { html, person, seedPages, spaceApp } from "./space_helpers.ts";

/** Ana owns "garden" (Home and Compost); Bo may read it (viewer), Cy may write it (member). */
async function garden(db: Db) {
  const { app, deps } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  const bo = await person(app, db, "bo@example.com", "Bo");
  const cy = await person(app, db, "cy@example.com", "Cy");
  await createWiki(db, { id: "garden", title: "Garden", ownerAccountId: ana.id });
  for (const [email, role] of [["bo@example.com", "viewer"], ["cy@example.com", "member"]]) {
    await shareSpace(db, { wikiId: "garden", email: email!, role: role!, actorId: ana.id });
  }
  await seedPages(deps, "garden", {
    Home: "# Home\n\nWelcome to the garden.\n",
    Compost: "# Compost\n\nReady after three months.\n",
  });
  return { app, deps, ana, bo, cy };
}

/** Follows a form's 303 to the page it names, as a browser would. */
async function after(res: Response, get: (path: string) => Promise<Response>) {
  assert.equal(res.status, 303, await res.clone().text());
  return await html(await get(res.headers.get("location")!), 200);
}

async function versionNames(db: Db): Promise<string[]> {
  const rows = await db<{ name: string }>`
    SELECT name FROM space_versions WHERE wiki_id = 'garden' ORDER BY id`;
  return rows.map((r) => r.name);
}

Deno.test("the Versions page: an owner publishes, sets the default, renames and deletes, each said", async () => {
  await using db = await freshDb();
  const { ana } = await garden(db);
  const empty = await html(await ana.get("/w/garden/-/versions"), 200);
  assert.match(empty, /No version has been published yet/);
  assert.match(empty, /Publish a version/);

  let page = await after(await ana.submit("/w/garden/-/versions", { name: "v1" }), ana.get);
  assert.match(page, /Published version &quot;v1&quot; \(2 pages\)/);
  page = await after(
    await ana.submit("/w/garden/-/versions", { name: "v2", default: "yes" }),
    ana.get,
  );
  assert.match(page, /v2<\/a> <strong class="default-mark">\(default\)/);
  assert.deepEqual(await versionNames(db), ["v1", "v2"]);

  // A taken name and a bad one: the list again, saying why, with the name kept.
  const taken = await html(await ana.submit("/w/garden/-/versions", { name: "V1" }), 409);
  assert.match(taken, /role="alert">Version &quot;v1&quot; already exists/i);
  const bad = await html(await ana.submit("/w/garden/-/versions", { name: "v 3" }), 400);
  assert.match(bad, /role="alert">A version name is 1-64 letters/);
  assert.match(bad, /value="v 3"/);

  page = await after(await ana.submit("/w/garden/-/versions/default?name=v1"), ana.get);
  assert.match(page, /Reads that name no version now get version &quot;v1&quot;/);

  // The default cannot be deleted: its confirmation page says so, and the form post is refused.
  const confirm = await html(await ana.get("/w/garden/-/versions/delete?name=v1"), 200);
  assert.match(confirm, /role="alert">Version &quot;v1&quot; is the default of &quot;garden&quot;/);
  assert.doesNotMatch(confirm, /class="danger"/);
  const refused = await html(await ana.submit("/w/garden/-/versions/delete", { name: "v1" }), 409);
  assert.match(refused, /make another version \(or &quot;latest&quot;\) the default first/);
  assert.deepEqual(await versionNames(db), ["v1", "v2"]);

  const rename = await html(await ana.get("/w/garden/-/versions/rename?name=v2"), 200);
  assert.match(rename, /name="to"[^>]*value="v2"|value="v2"[^>]*name="to"/);
  page = await after(
    await ana.submit("/w/garden/-/versions/rename", { name: "v2", to: "v2.0" }),
    ana.get,
  );
  assert.match(page, /Renamed version &quot;v2&quot; to &quot;v2.0&quot;/);
  assert.equal((await ana.get("/w/garden@v2.0/Compost")).status, 200);
  assert.equal((await ana.get("/w/garden@v2/Compost")).status, 404);
  const clash = await html(
    await ana.submit("/w/garden/-/versions/rename", { name: "v2.0", to: "v1" }),
    409,
  );
  assert.match(clash, /role="alert">Version &quot;v1&quot; already exists/);

  const sure = await html(await ana.get("/w/garden/-/versions/delete?name=v2.0"), 200);
  assert.match(sure, /<button type="submit" class="danger">Delete version v2.0<\/button>/);
  assert.match(sure, /This cannot be undone/);
  page = await after(await ana.submit("/w/garden/-/versions/delete", { name: "v2.0" }), ana.get);
  assert.match(page, /Deleted version &quot;v2.0&quot;. Its pages stay/);
  assert.deepEqual(await versionNames(db), ["v1"]);

  page = await after(await ana.submit("/w/garden/-/versions/default?name=latest"), ana.get);
  assert.match(page, /now get the live pages \(latest\)/);
});

Deno.test("the Versions page: a viewer and a member see the list without controls and are refused", async () => {
  await using db = await freshDb();
  const { ana, bo, cy } = await garden(db);
  await ana.submit("/w/garden/-/versions", { name: "v1" });
  for (const reader of [bo, cy]) {
    const list = await html(await reader.get("/w/garden/-/versions"), 200);
    assert.match(list, /href="\/w\/garden@v1">v1<\/a>/);
    assert.doesNotMatch(list, /Publish a version|Make default|Rename|Delete/);
    assert.match(list, /Owners and admins of this space publish/);
    assert.equal((await reader.submit("/w/garden/-/versions", { name: "v9" })).status, 403);
    assert.equal(
      (await reader.submit("/w/garden/-/versions/delete", { name: "v1" })).status,
      403,
    );
    assert.equal((await reader.submit("/w/garden/-/versions/default?name=v1")).status, 403);
    assert.equal(
      (await reader.submit("/w/garden/-/versions/rename", { name: "v1", to: "x" })).status,
      403,
    );
    assert.equal((await reader.get("/w/garden/-/versions/delete?name=v1")).status, 403);
  }
  assert.deepEqual(await versionNames(db), ["v1"]);
  const [row] = await db<{ d: string | null }>`
    SELECT default_version_id::text AS d FROM wikis WHERE id = 'garden'`;
  assert.equal(row!.d, null);
});

Deno.test("the version switcher: on live pages, to the same page in a version, or its home saying so", async () => {
  await using db = await freshDb();
  const { ana, deps } = await garden(db);
  const bare = await html(await ana.get("/w/garden/Compost"), 200);
  assert.doesNotMatch(bare, /id="version-switch"/, "no switcher without versions");
  await ana.submit("/w/garden/-/versions", { name: "v1", default: "yes" });
  await seedPages(deps, "garden", { Leaves: "# Leaves\n\nLeaf mould.\n" });

  const live = await html(await ana.get("/w/garden/Compost"), 200);
  assert.match(live, /<select id="version-switch" name="v">/);
  assert.match(live, /<option value="v1" ?>v1 · default<\/option>/);
  assert.match(live, /<option value="latest" selected>latest \(live pages\)<\/option>/);
  assert.match(live, /<input type="hidden" name="path" value="Compost"/);

  const go = (query: string) => ana.get(`/w/garden/-/versions/go?${query}`);
  assert.equal((await go("v=v1&path=Compost")).headers.get("location"), "/w/garden@v1/Compost");
  assert.equal((await go("v=latest&path=Compost")).headers.get("location"), "/w/garden/Compost");
  const gone = await go("v=v1&path=Leaves");
  assert.equal(gone.headers.get("location"), "/w/garden@v1?missing=Leaves");
  const home = await after(gone, ana.get);
  assert.match(home, /There is no page <strong>Leaves<\/strong> in version <strong>v1<\/strong>/);
  assert.match(home, /Welcome to the garden/);
  assert.match(home, /<option value="v1" selected>v1 · default<\/option>/);

  // In the version, back to the live pages where the page is not: the live home says so.
  await ana.submit("/w/garden/-/versions", { name: "v2" });
  await deletePage(deps, { wikiId: "garden", path: "Leaves" }, { source: "test" });
  const back = await after(await go("v=latest&path=Leaves"), ana.get);
  assert.match(back, /There is no page <strong>Leaves<\/strong> in version <strong>latest/);

  const unknown = await go("v=v9&path=Compost");
  assert.equal(unknown.status, 404);
  assert.match(
    await unknown.text(),
    /Version &quot;v9&quot; not found.*&quot;v1&quot;, &quot;v2&quot;/s,
  );
});
