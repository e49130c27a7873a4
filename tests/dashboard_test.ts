import assert from "node:assert/strict";
import { createWiki } from "../src/wikis/wikis.ts";
import { type Browser, browser } from "./browser.ts";
import { freshDb, testApp } from "./helpers.ts";

const PASSWORD = "correct horse battery staple";

async function signUp(b: Browser, email: string) {
  const res = await b.post("/signup", {
    _csrf: await b.token("/signup"),
    email,
    name: email.slice(0, email.indexOf("@")),
    password: PASSWORD,
  });
  assert.equal(res.status, 303);
}

Deno.test("the front page says what the service is, gives the hub address and lists public wikis", async () => {
  await using db = await freshDb();
  await createWiki(db, { id: "garden", title: "Garden notes", visibility: "public" });
  await createWiki(db, { id: "diary", title: "Secret diary", visibility: "private" });
  const { app } = testApp(db);
  const res = await app.request("/");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-security-policy")!, /script-src 'self'/);
  const html = await res.text();
  assert.match(html, /http:\/\/wiki\.test\/mcp\/hub\//);
  assert.match(html, /href="\/w\/garden">Garden notes</);
  assert.doesNotMatch(html, /Secret diary/);
  assert.doesNotMatch(html, /<script>/, "no inline script");
});

Deno.test("POST /spaces creates a space owned by the account or a team it manages", async () => {
  await using db = await freshDb();
  const { app } = testApp(db);
  const ana = browser(app);
  await signUp(ana, "ana@example.com");
  const csrf = await ana.token("/account");
  const made = await ana.post("/spaces", {
    _csrf: csrf,
    id: "Lab-Notes",
    title: "Lab notes",
    description: "What we learned",
    visibility: "private",
    owner: "me",
  });
  assert.equal(made.status, 303);
  assert.equal(made.headers.get("location"), "/w/lab-notes");
  const [wiki] =
    await db`SELECT id, title, visibility, owner_account_id FROM wikis WHERE id = 'lab-notes'`;
  assert.equal(wiki?.title, "Lab notes");
  assert.equal(wiki?.visibility, "private");
  assert.ok(wiki?.owner_account_id);
  assert.match(await (await ana.get("/account")).text(), /href="\/w\/lab-notes">Lab notes</);

  const taken = await ana.post("/spaces", { _csrf: csrf, id: "lab-notes", owner: "me" });
  assert.equal(taken.status, 409);
  assert.match(
    await taken.text(),
    /The id &quot;lab-notes&quot; is not available|The id "lab-notes" is not available/,
  );
  const bad = await ana.post("/spaces", { _csrf: csrf, id: "no spaces!", owner: "me" });
  assert.equal(bad.status, 400);
  assert.match(await bad.text(), /aria-invalid="true"/);
  // An id left empty is made from the title.
  const titled = await ana.post("/spaces", {
    _csrf: csrf,
    title: "Équipe Notes – 2026",
    owner: "me",
  });
  assert.equal(titled.headers.get("location"), "/w/equipe-notes-2026");
  const untitled = await ana.post("/spaces", { _csrf: csrf, title: "!!!", owner: "me" });
  assert.equal(untitled.status, 400);
  assert.match(await untitled.text(), /Give the space a title, or an id/);

  assert.equal((await ana.post("/teams", { _csrf: csrf, id: "lab", name: "Lab" })).status, 303);
  const team = await ana.post("/spaces", { _csrf: csrf, id: "lab-wiki", owner: "lab" });
  assert.equal(team.status, 303);
  const [owned] = await db`SELECT owner_team_id FROM wikis WHERE id = 'lab-wiki'`;
  assert.equal(owned?.owner_team_id, "lab");

  // A plain member of the team cannot create spaces for it; a stranger cannot at all.
  const bo = browser(app, "192.0.2.2");
  await signUp(bo, "bo@example.com");
  await ana.post("/teams/lab/members", { _csrf: csrf, email: "bo@example.com", role: "member" });
  const boCsrf = await bo.token("/account");
  assert.equal((await bo.post("/teams/lab/invitation/accept", { _csrf: boCsrf })).status, 303);
  const refused = await bo.post("/spaces", {
    _csrf: await bo.token("/account"),
    id: "bo-wiki",
    owner: "lab",
  });
  assert.equal(refused.status, 400);
  assert.equal((await db`SELECT 1 FROM wikis WHERE id = 'bo-wiki'`).length, 0);
  const anonymous = await app.request("/spaces", { method: "POST" });
  assert.notEqual(anonymous.status, 303);
  assert.deepEqual(
    (await db`SELECT id FROM wikis ORDER BY id`).map((r) => r.id),
    ["equipe-notes-2026", "lab-notes", "lab-wiki"],
  );
});

Deno.test("account settings change the name, and a new password signs out the other sessions", async () => {
  await using db = await freshDb();
  const { app } = testApp(db);
  const laptop = browser(app);
  await signUp(laptop, "ana@example.com");
  const phone = browser(app, "192.0.2.3");
  await phone.post("/signin", {
    _csrf: await phone.token("/signin"),
    email: "ana@example.com",
    password: PASSWORD,
  });
  assert.equal((await phone.get("/account")).status, 200);

  const csrf = await laptop.token("/account/settings");
  const named = await laptop.post("/account/settings/name", { _csrf: csrf, name: "Ana Lima" });
  assert.equal(named.status, 200);
  assert.match(await named.text(), /Signed in as <a href="\/account\/settings">Ana Lima</);

  const wrong = await laptop.post("/account/settings/password", {
    _csrf: csrf,
    current_password: "not my password",
    new_password: "a brand new passphrase",
  });
  assert.equal(wrong.status, 400);
  assert.match(await wrong.text(), /This is not your password/);
  const short = await laptop.post("/account/settings/password", {
    _csrf: csrf,
    current_password: PASSWORD,
    new_password: "short",
  });
  assert.equal(short.status, 400);

  const changed = await laptop.post("/account/settings/password", {
    _csrf: csrf,
    current_password: PASSWORD,
    new_password: "a brand new passphrase",
  });
  assert.equal(changed.status, 200);
  assert.equal((await laptop.get("/account")).status, 200, "this session stays");
  assert.equal((await phone.get("/account")).status, 303, "the other one is signed out");
  const again = browser(app, "192.0.2.4");
  const signIn = await again.post("/signin", {
    _csrf: await again.token("/signin"),
    email: "ana@example.com",
    password: "a brand new passphrase",
  });
  assert.equal(signIn.status, 303);
});

Deno.test("signed out, a page sends the person to sign in and back to the same address, query included", async () => {
  await using db = await freshDb();
  const { app } = testApp(db);
  const res = await app.request("/account/settings?from=email");
  assert.equal(res.status, 303);
  assert.equal(res.headers.get("location"), "/signin?next=%2Faccount%2Fsettings%3Ffrom%3Demail");
});
