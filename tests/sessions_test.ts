import assert from "node:assert/strict";
import { type Browser, browser } from "./browser.ts";
import { Hono } from "hono";
import { requestId } from "../src/http/request_id.ts";
import { sha256Hex } from "../src/lib/sha256.ts";
import { LOGIN_LIMITS, recordLoginFailure } from "../src/sessions/login_limit.ts";
import { hashPassword, needsRehash, verifyPassword } from "../src/sessions/password.ts";
import { webRoutes } from "../src/web/web_routes.ts";
import { freshDb, testDeps } from "./helpers.ts";

const PASSWORD = "correct horse battery staple";

/** The web app alone in an app, as `createApp` mounts it. */
function webApp(db: Parameters<typeof testDeps>[0], env: Record<string, string> = {}) {
  const deps = testDeps(db, env);
  const app = new Hono();
  app.use(requestId());
  app.route("/", webRoutes(deps));
  // Stands in for /api and /mcp: what a cookie-carrying request sees there.
  app.get("/api/v1/whoami", (c) => c.json({ account: c.get("account") ?? "none" }));
  return { app, deps };
}

async function signUp(b: Browser, email: string, password = PASSWORD, name = "Ana") {
  return await b.post("/signup", { _csrf: await b.token("/signup"), email, name, password });
}

async function signIn(b: Browser, email: string, password = PASSWORD) {
  return await b.post("/signin", { _csrf: await b.token("/signin"), email, password });
}

Deno.test("sign-up over https sets a __Host- session cookie and /account shows the email", async () => {
  await using db = await freshDb();
  const { app } = webApp(db, { BASE_URL: "https://wiki.test" });
  const b = browser(app);
  const res = await signUp(b, "ana@example.com");
  assert.equal(res.status, 303);
  assert.equal(res.headers.get("location"), "/account");
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("__Host-wiki_session="));
  assert.ok(cookie, "session cookie set");
  assert.match(cookie, /^__Host-wiki_session=[A-Za-z0-9_-]{43};/);
  const maxAge = Number(/Max-Age=(\d+)/.exec(cookie)?.[1]);
  assert.ok(maxAge > 30 * 86400 - 10 && maxAge <= 30 * 86400, `Max-Age ${maxAge}: 30 days`);
  for (const attribute of ["Path=/", "HttpOnly", "Secure", "SameSite=Lax"]) {
    assert.ok(cookie.split("; ").includes(attribute), `${attribute} in ${cookie}`);
  }
  assert.ok(!/Domain=/i.test(cookie));
  const account = await b.get("/account");
  assert.equal(account.status, 200);
  const html = await account.text();
  assert.match(html, /^<!DOCTYPE html><html lang="en">/);
  assert.match(html, /ana@example\.com/);
  assert.match(html, /Signed in as/);
  assert.equal(account.headers.get("cache-control"), "no-store");
  assert.match(account.headers.get("content-security-policy")!, /frame-ancestors 'none'/);
});

Deno.test("over plain http the cookie is wiki_session, without Secure", async () => {
  await using db = await freshDb();
  const { app } = webApp(db);
  const res = await signUp(browser(app), "ana@example.com");
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("wiki_session="));
  assert.ok(cookie);
  assert.ok(!cookie.includes("Secure"));
  assert.ok(cookie.includes("HttpOnly") && cookie.includes("SameSite=Lax"));
});

Deno.test("passwords are stored only as scrypt hashes and never logged", async () => {
  await using db = await freshDb();
  const { app, deps } = webApp(db, { PASSWORD_HASH_COST: "15" });
  const b = browser(app);
  await signUp(b, "ana@example.com");
  await b.post("/signout", { _csrf: await b.token("/account") });
  await signIn(b, "ana@example.com", "wrong password 123");
  await signIn(b, "ana@example.com");
  const [row] = await db<{ password_hash: string }>`SELECT password_hash FROM accounts`;
  assert.match(row!.password_hash, /^scrypt\$32768\$8\$1\$[\w-]{43}\$[\w-]{43}$/);
  const everything = JSON.stringify([
    await db`SELECT * FROM accounts`,
    await db`SELECT * FROM sessions`,
    await db`SELECT * FROM login_attempts`,
    deps.logLines,
  ]);
  assert.ok(!everything.includes(PASSWORD));
  assert.ok(!everything.includes("wrong password 123"));
  const token = b.jar.get("wiki_session")!;
  assert.ok(!everything.includes(token), "no session secret stored");
  const [session] = await db<{ id_hash: string }>`SELECT id_hash FROM sessions`;
  assert.equal(session!.id_hash, await sha256Hex(token));
});

Deno.test("sign-up refuses short passwords, the email as password, bad and taken emails", async () => {
  await using db = await freshDb();
  const { app } = webApp(db);
  const b = browser(app);
  const short = await signUp(b, "ana@example.com", "too short");
  assert.equal(short.status, 400);
  assert.match(await short.text(), /at least 10 characters/);
  const same = await signUp(b, "ana@example.com", "Ana@Example.com");
  assert.equal(same.status, 400);
  assert.match(await same.text(), /must not be your email address/);
  const bad = await signUp(b, "not-an-email");
  assert.equal(bad.status, 400);
  assert.match(await bad.text(), /&quot;not-an-email&quot; is not an email address/);
  assert.equal(b.jar.has("wiki_session"), false);
  assert.equal((await db`SELECT 1 FROM accounts`).length, 0);
  assert.equal((await signUp(b, "ana@example.com")).status, 303);
  // A taken email is answered as a new one (no hint that the account exists), with no session.
  const other = browser(app);
  const taken = await signUp(other, "ANA@example.com");
  assert.equal(taken.status, 303);
  assert.equal(taken.headers.get("location"), "/account");
  const html = await taken.text();
  assert.doesNotMatch(html, /already exists/);
  assert.ok(!html.includes(PASSWORD), "the password is never echoed");
  assert.equal(other.jar.size, 1, "only the CSRF cookie: no session for a taken email");
  assert.equal((await db`SELECT 1 FROM accounts`).length, 1);
});

Deno.test("a wrong password or unknown email shows one error and sets no session cookie", async () => {
  await using db = await freshDb();
  const { app } = webApp(db);
  await signUp(browser(app), "ana@example.com");
  for (
    const [email, password] of [["ana@example.com", "not the password"], [
      "bo@example.com",
      PASSWORD,
    ]]
  ) {
    const b = browser(app);
    const res = await signIn(b, email!, password);
    assert.equal(res.status, 400);
    assert.match(await res.text(), /The email or the password is not right/);
    assert.ok(!res.headers.getSetCookie().some((c) => c.startsWith("wiki_session=")));
    assert.equal((await b.get("/account")).status, 303);
  }
  const b = browser(app);
  const res = await signIn(b, "Ana@Example.com");
  assert.equal(res.status, 303);
  assert.equal((await b.get("/account")).status, 200);
});

Deno.test("a POST without the CSRF token, or with a wrong one, is refused with 403", async () => {
  await using db = await freshDb();
  const { app } = webApp(db);
  const b = browser(app);
  await b.token("/signup");
  const missing = await b.post("/signup", {
    email: "ana@example.com",
    name: "",
    password: PASSWORD,
  });
  assert.equal(missing.status, 403);
  assert.match(await missing.text(), /form has expired or did not come from this site/);
  const wrong = await b.post("/signup", {
    _csrf: "A".repeat(43),
    email: "ana@example.com",
    password: PASSWORD,
  });
  assert.equal(wrong.status, 403);
  assert.equal((await db`SELECT 1 FROM accounts`).length, 0);
  // Signed in, the token is the session's: the signed-out one no longer passes.
  const anonymous = await b.token("/signin");
  await signUp(b, "ana@example.com");
  assert.equal((await b.post("/signout", { _csrf: anonymous })).status, 403);
  assert.equal((await b.post("/signout", {})).status, 403);
  assert.equal((await b.get("/account")).status, 200, "still signed in");
  // Another browser's session token is no good either.
  const other = browser(app);
  await signUp(other, "bo@example.com");
  assert.equal((await b.post("/signout", { _csrf: await other.token("/account") })).status, 403);
});

Deno.test("cross-site POSTs are refused by Origin and by Sec-Fetch-Site", async () => {
  await using db = await freshDb();
  const { app } = webApp(db);
  const b = browser(app);
  const form = { email: "ana@example.com", password: PASSWORD };
  for (
    const headers of [
      { origin: "https://evil.example" },
      { origin: "null" },
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
      { "sec-fetch-site": "same-origin", origin: "https://evil.example" },
    ] as Record<string, string>[]
  ) {
    const res = await b.post("/signup", { ...form, _csrf: await b.token("/signup") }, headers);
    assert.equal(res.status, 403, JSON.stringify(headers));
    assert.match(await res.text(), /Cross-site form posts are not accepted/);
  }
  assert.equal((await db`SELECT 1 FROM accounts`).length, 0);
  // A page served with Referrer-Policy: no-referrer posts with Origin: null (Chromium), and
  // Fetch Metadata still says it is our own.
  const ok = await b.post("/signup", { ...form, _csrf: await b.token("/signup") }, {
    origin: "null",
    "sec-fetch-site": "same-origin",
  });
  assert.equal(ok.status, 303);
});

Deno.test("sign-out ends the session server-side: the old cookie no longer works", async () => {
  await using db = await freshDb();
  const { app } = webApp(db);
  const b = browser(app);
  await signUp(b, "ana@example.com");
  const stolen = b.jar.get("wiki_session")!;
  const res = await b.post("/signout", { _csrf: await b.token("/account") });
  assert.equal(res.status, 303);
  assert.equal(res.headers.get("location"), "/signin");
  assert.ok(res.headers.getSetCookie().some((c) => /^wiki_session=;.*Max-Age=0/.test(c)));
  assert.equal((await db`SELECT 1 FROM sessions`).length, 0);
  const replay = await app.request("/account", { headers: { cookie: `wiki_session=${stolen}` } });
  assert.equal(replay.status, 303);
  assert.equal(replay.headers.get("location"), "/signin?next=%2Faccount");
  assert.ok(replay.headers.getSetCookie().some((c) => /^wiki_session=;/.test(c)), "cleared");
});

Deno.test("the 11th failed sign-in for an email within the window gets 429 with Retry-After", async () => {
  await using db = await freshDb();
  const { app, deps } = webApp(db);
  await signUp(browser(app), "ana@example.com");
  const b = browser(app);
  for (let i = 0; i < LOGIN_LIMITS.email; i++) {
    assert.equal((await signIn(b, "ana@example.com", `guess number ${i}`)).status, 400);
  }
  for (const password of ["guess number 10", PASSWORD]) {
    const res = await signIn(b, "ANA@example.com", password);
    assert.equal(res.status, 429);
    const retryAfter = Number(res.headers.get("retry-after"));
    assert.ok(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 900, `${retryAfter}`);
    assert.match(await res.text(), /Too many failed sign-ins/);
    assert.ok(!res.headers.getSetCookie().some((c) => c.startsWith("wiki_session=")));
  }
  assert.ok(deps.logLines.some((l) => l.includes('"reason":"rate_limited"')));
  // Another email from the same address is not blocked by this email's count.
  assert.equal((await signIn(b, "bo@example.com", "whatever password")).status, 400);
  // When the window has passed, the counter starts again.
  await db`UPDATE login_attempts SET window_started_at = now() - interval '16 minutes'`;
  assert.equal((await signIn(b, "ana@example.com")).status, 303);
});

Deno.test("failures per address are shared by every email, and a success clears only the email's", async () => {
  await using db = await freshDb();
  const { app } = webApp(db);
  await signUp(browser(app), "ana@example.com");
  const ip = "198.51.100.7";
  await signIn(browser(app, ip), "ana@example.com", "one wrong guess");
  assert.equal((await signIn(browser(app, ip), "ana@example.com")).status, 303);
  const keys = (await db<{ key: string }>`SELECT key FROM login_attempts ORDER BY key`)
    .map((r) => r.key);
  assert.deepEqual(keys, [`ip:${ip}`], "the email's failures are forgotten, the address's kept");
  for (let i = 1; i < LOGIN_LIMITS.ip; i++) {
    await recordLoginFailure(db, { email: `user${i}@example.com`, ip });
  }
  const blocked = await signIn(browser(app, ip), "ana@example.com");
  assert.equal(blocked.status, 429);
  assert.ok(Number(blocked.headers.get("retry-after")) > 0);
  assert.equal((await signIn(browser(app, "203.0.113.9"), "ana@example.com")).status, 303);
});

Deno.test("sessions are for web routes only: /api never sees the cookie's account", async () => {
  await using db = await freshDb();
  const { app } = webApp(db);
  const b = browser(app);
  await signUp(b, "ana@example.com");
  assert.equal((await b.get("/account")).status, 200);
  assert.deepEqual(await (await b.get("/api/v1/whoami")).json(), { account: "none" });
});

Deno.test("an expired session signs nobody in; one past half its life is renewed", async () => {
  await using db = await freshDb();
  const { app } = webApp(db);
  const b = browser(app);
  await signUp(b, "ana@example.com");
  await db`UPDATE sessions SET expires_at = now() + interval '10 days'`;
  const renewed = await b.get("/account");
  assert.equal(renewed.status, 200);
  const cookie = renewed.headers.getSetCookie().find((c) => c.startsWith("wiki_session="));
  const maxAge = Number(/Max-Age=(\d+)/.exec(cookie ?? "")?.[1]);
  assert.ok(maxAge > 30 * 86400 - 10, `renewed for 30 days, Max-Age ${maxAge}`);
  const [row] = await db<{ days: number }>`
    SELECT extract(epoch FROM expires_at - now()) / 86400 AS days FROM sessions`;
  assert.ok(Number(row!.days) > 29.9);
  await db`UPDATE sessions SET expires_at = now() - interval '1 second'`;
  const expired = await b.get("/account");
  assert.equal(expired.status, 303);
  assert.equal(expired.headers.get("location"), "/signin?next=%2Faccount");
});

Deno.test("a hash made with older parameters still verifies and is upgraded at sign-in", async () => {
  await using db = await freshDb();
  const { app } = webApp(db, { PASSWORD_HASH_COST: "15" });
  await signUp(browser(app), "ana@example.com");
  const current = await hashPassword(PASSWORD);
  assert.equal(needsRehash(current), false);
  assert.equal(await verifyPassword(PASSWORD, current), true);
  assert.equal(await verifyPassword(`${PASSWORD}!`, current), false);
  assert.equal(await verifyPassword(PASSWORD, null), false);
  assert.equal(await verifyPassword(PASSWORD, "scrypt$1$1$1$x$y"), false);
  // The same password hashed at N = 2^14, as a deployment with older settings stored it.
  const olderHash = await hashPassword(PASSWORD, { N: 2 ** 14, r: 8, p: 1 });
  assert.match(olderHash, /^scrypt\$16384\$8\$1\$/);
  assert.equal(await verifyPassword(PASSWORD, olderHash), true);
  assert.equal(needsRehash(olderHash), true);
  await db`UPDATE accounts SET password_hash = ${olderHash}`;
  assert.equal((await signIn(browser(app), "ana@example.com")).status, 303);
  const [row] = await db<{ password_hash: string }>`SELECT password_hash FROM accounts`;
  assert.match(row!.password_hash, /^scrypt\$32768\$/);
});
