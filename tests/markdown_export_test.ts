import assert from "node:assert/strict";
import { createWiki } from "../src/wikis/wikis.ts";
import { removeTeamMember } from "../src/teams/teams.ts";
import { freshDb } from "./helpers.ts";
import { html, person, seedPages, spaceApp, teamWiki } from "./space_helpers.ts";

// `/w/<id>/<path>.md`: a page's markdown as written, for whoever may read the page.

Deno.test("GET /w/<id>/<path>.md gives a private page's markdown to its members only; others get the 404 of an unknown id", async () => {
  await using db = await freshDb();
  const { app, deps } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  const bo = await person(app, db, "bo@example.com", "Bo");
  const cy = await person(app, db, "cy@example.com", "Cy");
  await createWiki(db, { id: "secret", ownerAccountId: ana.id });
  await seedPages(deps, "secret", { "Guides/Plans": "# Plans\n\nThe launch date is [[Soon]]." });
  await teamWiki(deps, "crew", ana, [{ person: bo, email: "bo@example.com" }]);
  await seedPages(deps, "crew", { "Notes": "# Notes\n\n| a | b |\n| - | - |\n| 1 | 2 |\n" });

  // The owner of a personal space, and a team's member: the markdown, kept by this browser only.
  const own = await ana.get("/w/secret/Guides/Plans.md");
  assert.equal(own.status, 200);
  assert.match(own.headers.get("content-type") ?? "", /^text\/markdown/);
  assert.equal(own.headers.get("cache-control"), "private, no-cache");
  assert.equal(await own.text(), "# Plans\n\nThe launch date is [[Soon]].");
  const member = await bo.get("/w/crew/Notes.md");
  assert.equal(member.status, 200);
  assert.match(await member.text(), /^\| a \| b \|$/m);
  // The page offers its markdown to a member.
  assert.match(
    await html(await ana.get("/w/secret/Guides/Plans"), 200),
    /href="\/w\/secret\/Guides\/Plans\.md"/,
  );

  // Signed out, a stranger, a removed member: the 404 an unknown id gets, word for word.
  const unknown = await notFound(await app.request("/w/nosuch/Guides/Plans.md"));
  for (
    const [who, res] of [
      ["signed out", await app.request("/w/secret/Guides/Plans.md")],
      ["a stranger", await cy.get("/w/secret/Guides/Plans.md")],
      ["a stranger to the team", await cy.get("/w/crew/Notes.md")],
    ] as const
  ) {
    const body = await notFound(res);
    assert.doesNotMatch(body, /launch date|\| a \|/, who);
    if (who === "signed out") assert.equal(body.replaceAll("secret", "nosuch"), unknown, who);
  }
  const strangerUnknown = await notFound(await cy.get("/w/nosuch/Notes.md"));
  assert.equal(
    (await notFound(await cy.get("/w/crew/Notes.md"))).replaceAll("crew", "nosuch"),
    strangerUnknown,
  );

  await removeTeamMember(db, { actorId: ana.id, teamId: "crew-team", accountId: bo.id });
  assert.doesNotMatch(await notFound(await bo.get("/w/crew/Notes.md")), /\| a \|/);

  // A member asking for a page that is not there: the page's own 404.
  assert.equal((await ana.get("/w/secret/Nowhere.md")).status, 404);
  // A public wiki's markdown stays open to all, as before.
  await createWiki(db, { id: "open", visibility: "public", ownerAccountId: ana.id });
  await seedPages(deps, "open", { "Readme": "# Readme" });
  const open = await app.request("/w/open/Readme.md");
  assert.equal(open.status, 200);
  assert.equal(await open.text(), "# Readme");
});

Deno.test("GET /w/<id>/<path>.md answers 304 to a reader whose copy is current (If-None-Match), and the new markdown once the page changes", async () => {
  await using db = await freshDb();
  const { app, deps } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "secret", ownerAccountId: ana.id });
  await createWiki(db, { id: "open", visibility: "public", ownerAccountId: ana.id });
  await seedPages(deps, "secret", { "Plans": "# Plans\n\nLaunch in May." });
  await seedPages(deps, "open", { "Readme": "# Readme\n\nHello." });

  for (
    const [url, get] of [
      ["/w/secret/Plans.md", ana.get],
      [
        "/w/open/Readme.md",
        (u: string, h?: Record<string, string>) => app.request(u, { headers: h }),
      ],
    ] as const
  ) {
    const first = await get(url);
    assert.equal(first.status, 200, url);
    await first.body?.cancel();
    const etag = first.headers.get("etag")!;
    assert.match(etag, /^"\d+-1"$/, url);
    // The tag alone, among others, weak, or `*`: the copy is current.
    for (const header of [etag, `"0-0", ${etag}`, `W/${etag}`, "*"]) {
      const again = await get(url, { "if-none-match": header });
      assert.equal(again.status, 304, `${url} ${header}`);
      assert.equal(again.headers.get("etag"), etag);
      assert.equal(await again.text(), "");
    }
    const other = await get(url, { "if-none-match": '"0-0"' });
    assert.equal(other.status, 200, url);
    await other.body?.cancel();
  }
  // A private page's revalidation still checks who asks: signed out gets the 404, not a 304.
  const etag = (await ana.get("/w/secret/Plans.md")).headers.get("etag")!;
  const anonymous = await app.request("/w/secret/Plans.md", { headers: { "if-none-match": etag } });
  assert.equal(anonymous.status, 404);
  await anonymous.body?.cancel();

  // The page changes: the old tag no longer matches, and the new markdown comes back.
  await seedPages(deps, "secret", { "Plans": "# Plans\n\nLaunch in June." });
  const changed = await ana.get("/w/secret/Plans.md", { "if-none-match": etag });
  assert.equal(changed.status, 200);
  assert.notEqual(changed.headers.get("etag"), etag);
  assert.equal(await changed.text(), "# Plans\n\nLaunch in June.");
});

/** The body of a 404, with the request id taken out (it differs on every request). */
async function notFound(res: Response): Promise<string> {
  const body = await res.text();
  assert.equal(res.status, 404, body.slice(0, 500));
  const id = res.headers.get("x-request-id");
  return id ? body.replaceAll(id, "<request-id>") : body;
}
