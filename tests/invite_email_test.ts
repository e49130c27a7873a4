import assert from "node:assert/strict";
import type { Hono } from "hono";
import { createWiki } from "../src/wikis/wikis.ts";
import { browser } from "./browser.ts";
import { freshDb, testApp } from "./helpers.ts";
import { messageText, smtpServer } from "./smtp_server.ts";
import { html, person } from "./space_helpers.ts";

const BUDGETS = { RATE_LIMIT_ANON_PER_MINUTE: "100000", RATE_LIMIT_WEB_PER_MINUTE: "100000" };

/** Someone with no account opens the link, signs up, and joins: the team page they reach. */
async function signUpThrough(app: Hono, path: string, email: string): Promise<string> {
  const newcomer = browser(app);
  const invite = await html(await newcomer.get(path), 200);
  assert.match(invite, new RegExp(`/signup\\?next=${encodeURIComponent(path)}`));
  const signedUp = await newcomer.post("/signup", {
    _csrf: await newcomer.token(`/signup?next=${encodeURIComponent(path)}`),
    email,
    name: "Cy",
    password: "a long enough password",
    next: path,
  });
  assert.equal(signedUp.headers.get("location"), path);
  const joined = await newcomer.post(path, { _csrf: await newcomer.token(path) });
  assert.equal(joined.headers.get("location"), "/teams/ops?joined");
  return await html(await newcomer.get("/teams/ops"), 200);
}

Deno.test("with SMTP configured, an invitation is emailed with a link that signs the person up into the team as the chosen role, once", async () => {
  await using smtp = smtpServer();
  await using db = await freshDb();
  const { app } = testApp(db, {
    ...BUDGETS,
    SMTP_URL: smtp.url,
    SMTP_FROM: "Wiki <wiki@example.com>",
  });
  const ana = await person(app, db, "ana@example.com", "Ana");
  await ana.submit("/teams", { id: "ops", name: "Ops" });
  await createWiki(db, { id: "handbook", visibility: "private", ownerTeamId: "ops" });
  assert.match(await html(await ana.get("/teams/ops"), 200), /They get an email with a link/);

  const invited = await ana.submit("/teams/ops/members", {
    email: "cy@example.org",
    role: "viewer",
  });
  assert.equal(invited.headers.get("location"), "/teams/ops?emailed=1");
  assert.match(await html(await ana.get("/teams/ops?emailed=1"), 200), /Invitation emailed/);

  const mail = await smtp.nextMessage();
  assert.deepEqual(mail.to, ["cy@example.org"]);
  assert.match(mail.data, /^From: Wiki <wiki@example\.com>$/m);
  assert.match(mail.data, /^Subject: Ana invites you to Ops$/m);
  const text = messageText(mail.data);
  assert.match(text, /Ana \(ana@example\.com\) invites you to the team "Ops" as viewer/);
  const url = /(http\S+\/invite\/wk_inv_\S+)/.exec(text)![1]!;
  const path = new URL(url).pathname;

  const team = await signUpThrough(app, path, "cy@example.org");
  assert.match(team, /your role: viewer/);
  const page = await html(await ana.get("/teams/ops"), 200);
  assert.doesNotMatch(page, /Pending invitations/, "the emailed invitation is answered");
  assert.match(await html(await browser(app).get(path), 410), /already used/);
});

Deno.test("an invitation whose email the SMTP server refuses is kept: the page says so and shows the link, which works", async () => {
  await using smtp = smtpServer({ refuse: true });
  await using db = await freshDb();
  const { app, deps } = testApp(db, { ...BUDGETS, SMTP_URL: smtp.url });
  const ana = await person(app, db, "ana@example.com", "Ana");
  await ana.submit("/teams", { id: "ops", name: "Ops" });

  const page = await html(
    await ana.submit("/teams/ops/members", { email: "cy@example.org", role: "member" }),
    200,
  );
  assert.match(page, /the email to cy@example\.org could not be sent/);
  assert.match(page, /cy@example\.org \(member\)/, "the invitation is pending");
  const url = /<code id="unsent-invite-url">([^<]+)<\/code>/.exec(page)![1]!;
  assert.ok(
    (deps as { logLines?: string[] }).logLines?.some((l) =>
      l.includes("invitation email not sent")
    ),
  );

  assert.match(
    await signUpThrough(app, new URL(url).pathname, "cy@example.org"),
    /your role: member/,
  );
});

Deno.test("invitation emails stop at INVITE_EMAILS_PER_HOUR an account; the invitation is still stored", async () => {
  await using smtp = smtpServer();
  await using db = await freshDb();
  const { app } = testApp(db, { ...BUDGETS, SMTP_URL: smtp.url, INVITE_EMAILS_PER_HOUR: "1" });
  const ana = await person(app, db, "ana@example.com", "Ana");
  await ana.submit("/teams", { id: "ops", name: "Ops" });
  await ana.submit("/teams/ops/members", { email: "one@example.org", role: "member" });
  const page = await html(
    await ana.submit("/teams/ops/members", { email: "two@example.org", role: "member" }),
    200,
  );
  assert.match(page, /not emailed: you have sent 1 invitation emails in the last hour/);
  assert.match(page, /two@example\.org \(member\)/);
  assert.equal(smtp.messages.length, 1);
});

Deno.test("without SMTP, inviting by email sends nothing and says the invitation waits on their account page", async () => {
  await using db = await freshDb();
  const { app } = testApp(db, BUDGETS);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await ana.submit("/teams", { id: "ops", name: "Ops" });
  const invited = await ana.submit("/teams/ops/members", {
    email: "cy@example.org",
    role: "member",
  });
  assert.equal(invited.headers.get("location"), "/teams/ops?invited=1");
  assert.equal((await db`SELECT 1 FROM team_invite_links`).length, 0, "no link is made");
});
