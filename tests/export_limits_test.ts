import assert from "node:assert/strict";
import { unzipSync } from "fflate";
import type { Hono } from "hono";
import { createToken } from "../src/auth/tokens.ts";
import { addTeamMember, createTeam } from "../src/teams/teams.ts";
import { publishVersion } from "../src/versions/versions.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, testApp } from "./helpers.ts";
import { html, type Person, person, seedPages } from "./space_helpers.ts";

// Issue 26.1: a space's files have a quota, an export is streamed, capped and budgeted.

/** A PNG of `size` bytes: its signature, then filler that does not compress to nothing. */
function png(size: number, seed = 1): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  let x = seed;
  for (let i = 8; i < size; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    bytes[i] = x >>> 24;
  }
  return bytes;
}

/** Uploads one file through the Files page's form (JSON answer with `json`). */
async function upload(app: Hono, who: Person, wikiId: string, file: File, json = false) {
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await (await who.get("/account")).text())![1]!;
  const form = new FormData();
  form.set("_csrf", csrf);
  form.set("file", file);
  const cookie = [...who.jar].map(([n, v]) => `${n}=${v}`).join("; ");
  const headers: Record<string, string> = { cookie };
  if (json) headers.accept = "application/json";
  return await app.request(`/w/${wikiId}/-/files`, { method: "POST", body: form, headers }, {
    remoteAddr: { hostname: "192.0.2.1", port: 40000, transport: "tcp" },
  });
}

const roomy = { RATE_LIMIT_ANON_PER_MINUTE: "100000", RATE_LIMIT_WEB_PER_MINUTE: "100000" };

Deno.test("a space's files are held to a quota of files and of bytes, shown on its Files page", async () => {
  await using db = await freshDb();
  const { app } = testApp(db, { ...roomy, SPACE_FILES_MAX: "2", SPACE_FILES_MB: "1" });
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "lab", ownerAccountId: ana.id });
  assert.equal((await upload(app, ana, "lab", new File([png(600_000)], "a.png"))).status, 303);
  const page = await html(await ana.get("/w/lab/-/files"), 200);
  assert.match(page, /1 of 2 files, 0\.6 MB of 1 MB used/);
  // No file has an earlier version yet: no column for them.
  assert.doesNotMatch(page, /<th>Earlier versions<\/th>/);

  const tooBig = await upload(app, ana, "lab", new File([png(600_000, 2)], "b.png"));
  assert.equal(tooBig.status, 413);
  assert.match(
    await tooBig.text(),
    /The file &quot;b\.png&quot; \(0\.6 MB\) would take the wiki &quot;lab&quot; past its quota: 0\.6 MB of 1 MB used/,
  );
  assert.equal((await upload(app, ana, "lab", new File([png(1000, 3)], "c.png"))).status, 303);
  // A small file is said in kilobytes, in the table and in what the space uses.
  const small = await html(await ana.get("/w/lab/-/files"), 200);
  assert.match(small, /<td>1 KB<\/td>/);
  assert.match(small, /2 of 2 files, 0\.6 MB of 1 MB used/);
  const tooMany = await upload(app, ana, "lab", new File([png(1000, 4)], "d.png"), true);
  assert.equal(tooMany.status, 413);
  assert.match((await tooMany.json()).error, /holds 2 files, its quota.*at most 2 files a space/);
  const [row] = await db<{ n: number }>`SELECT count(*)::int AS n FROM attachments`;
  assert.equal(row!.n, 2);
});

Deno.test("the quota counts what is stored: the same bytes again take no room, a replace keeps both", async () => {
  await using db = await freshDb();
  const { app } = testApp(db, { ...roomy, SPACE_FILES_MAX: "1", SPACE_FILES_MB: "2" });
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "lab", ownerAccountId: ana.id });
  const { token } = await createToken(db, { accountId: ana.id, kind: "account", name: "files" });
  const post = async (name: string, bytes: Uint8Array<ArrayBuffer>, replace = false) => {
    const form = new FormData();
    form.set("file", new File([bytes], name));
    if (replace) form.set("replace", "true");
    const res = await app.request("/api/v1/spaces/lab/files", {
      method: "POST",
      body: form,
      headers: { Authorization: `Bearer ${token}` },
    });
    return { status: res.status, body: await res.json() };
  };
  const first = png(600_000, 1);
  assert.equal((await post("a.png", first)).status, 201);
  // The space is full (1 of 1 files): the same upload again (a retry, a second paste, an
  // import run twice) stores nothing, so it is not refused.
  const again = await post("a.png", first);
  assert.equal(again.status, 201, JSON.stringify(again.body));
  assert.equal(again.body.status, "unchanged");
  // A replace swaps 0.6 MB for 0.7 MB: the old bytes move to the file's versions.
  const replaced = await post("a.png", png(700_000, 2), true);
  assert.equal(replaced.status, 201, JSON.stringify(replaced.body));
  assert.equal(replaced.body.status, "replaced");
  // Other bytes under the name would be a second file: over the quota of one.
  const other = await post("a.png", png(1000, 3));
  assert.equal(other.status, 413);
  assert.match(other.body.detail, /holds 1 files, its quota: "a-2\.png" cannot be added/);
  const tooBig = await post("a.png", png(1_100_000, 4), true);
  assert.equal(tooBig.status, 413);
  assert.match(
    tooBig.body.detail,
    /would take the wiki "lab" past its quota: 1\.2 MB of 2 MB used \(1\.2 MB of it earlier versions/,
  );
  const rows = await db<{ name: string; size: number }>`SELECT name, size FROM attachments`;
  assert.deepEqual(rows, [{ name: "a.png", size: 700_000 }], "a refused replace keeps the file");
});

Deno.test("an export is streamed in pieces and holds every page and file byte for byte", async () => {
  await using db = await freshDb();
  const { app, deps } = testApp(db, roomy);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "lab", visibility: "public", ownerAccountId: ana.id });
  const bytes = [png(3_000_000, 5), png(2_000_000, 6)];
  for (const [i, b] of bytes.entries()) {
    assert.equal((await upload(app, ana, "lab", new File([b], `f${i}.png`))).status, 303);
  }
  await seedPages(deps, "lab", { Home: "# Home\n\n![a](/w/lab/-/files/f0.png)\n" });
  const res = await app.request("/w/lab/-/export");
  assert.equal(res.status, 200);
  const pieces: Uint8Array[] = [];
  for await (const piece of res.body!) pieces.push(piece);
  assert.ok(pieces.length > 10, `the zip came in ${pieces.length} pieces, not whole`);
  // Files are read 32 KB a query: each 128 KB read cost PostgreSQL's driver ~6 times its size
  // in buffers and text, and a 100 MB export grew the server by 115-128 MiB (26.1).
  const largest = Math.max(...pieces.map((p) => p.length));
  assert.ok(largest <= 32 * 1024, `a piece of ${largest} bytes`);
  const zip = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const piece of pieces) {
    zip.set(piece, at);
    at += piece.length;
  }
  const files = unzipSync(zip);
  assert.deepEqual(files["lab/f0.png"], bytes[0]);
  assert.deepEqual(files["lab/f1.png"], bytes[1]);
  assert.equal(new TextDecoder().decode(files["lab/Home.md"]), "# Home\n\n![a](f0.png)\n");
});

Deno.test("an export over EXPORT_MAX_MB is refused with 413 before anything is read", async () => {
  await using db = await freshDb();
  const { app, deps } = testApp(db, { ...roomy, EXPORT_MAX_MB: "1" });
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "lab", visibility: "public", ownerAccountId: ana.id });
  assert.equal((await upload(app, ana, "lab", new File([png(900_000)], "a.png"))).status, 303);
  await seedPages(deps, "lab", { Home: `# Home\n\n${"words ".repeat(40_000)}` });
  const refused = await app.request("/w/lab/-/export");
  assert.equal(refused.status, 413);
  assert.match(
    await refused.text(),
    /The wiki &quot;lab&quot; holds 1\.1 MB of pages and files: an export holds at most 1 MB \(EXPORT_MAX_MB\)/,
  );
});

Deno.test("anonymous exports are limited per address and answered 429 with Retry-After", async () => {
  await using db = await freshDb();
  const { app, deps } = testApp(db, { ...roomy, EXPORTS_ANON_PER_HOUR: "2" });
  await createWiki(db, { id: "lab", visibility: "public" });
  await seedPages(deps, "lab", { Home: "# Home\n" });
  const from = (ip: string) =>
    app.request("/w/lab/-/export", {}, {
      remoteAddr: { hostname: ip, port: 40000, transport: "tcp" },
    });
  for (let i = 0; i < 2; i++) {
    const ok = await from("192.0.2.70");
    assert.equal(ok.status, 200);
    await ok.body?.cancel();
  }
  const refused = await from("192.0.2.70");
  assert.equal(refused.status, 429);
  const retry = Number(refused.headers.get("retry-after"));
  assert.ok(retry > 3000, `Retry-After ${retry}`);
  assert.equal(refused.headers.get("ratelimit"), `"exports";r=0;t=${retry}`);
  assert.match(await refused.text(), /Too many exports: at most 2 an hour from this address/);
  const other = await from("192.0.2.71");
  assert.equal(other.status, 200, "another address has its own budget");
  await other.body?.cancel();
});

/** A response body read whole, and the number of pieces it came in. */
async function pieces(res: Response): Promise<{ bytes: Uint8Array; count: number }> {
  const parts: Uint8Array[] = [];
  for await (const part of res.body!) parts.push(part);
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return { bytes, count: parts.length };
}

Deno.test("a version's export goes the live export's way: streamed, capped by EXPORT_MAX_MB, budgeted", async () => {
  await using db = await freshDb();
  const { app, deps } = testApp(db, { ...roomy, EXPORT_MAX_MB: "1", EXPORTS_ANON_PER_HOUR: "2" });
  await createWiki(db, { id: "lab", visibility: "public" });
  // Text that deflates poorly, so the zip is long enough to come in many pieces.
  const noise = (seed: number) => [...png(150_000, seed)].map((b) => b.toString(36)).join(" ");
  await seedPages(deps, "lab", { Home: "# Home\n", Notes: `# Notes\n\n${noise(7)}\n` });
  await publishVersion(db, "lab", { name: "v1" }, null);
  const ok = await app.request("/w/lab@v1/-/export");
  assert.equal(ok.status, 200);
  assert.equal(ok.headers.get("content-disposition"), 'attachment; filename="lab@v1.zip"');
  const { bytes, count } = await pieces(ok);
  assert.ok(count > 5, `the zip came in ${count} pieces, not whole`);
  const files = unzipSync(bytes);
  assert.deepEqual(Object.keys(files).sort(), ["lab@v1/Home.md", "lab@v1/Notes.md"]);
  assert.equal(new TextDecoder().decode(files["lab@v1/Home.md"]), "# Home\n");

  // The live pages grow past the cap; a version published after them is refused whole.
  await seedPages(deps, "lab", { More: `# More\n\n${noise(8)}\n${noise(9)}\n` });
  await publishVersion(db, "lab", { name: "v2" }, null);
  const refused = await app.request("/w/lab@v2/-/export");
  assert.equal(refused.status, 413);
  assert.match(
    (await refused.json()).detail,
    /^Version "v2" of the wiki "lab" holds 1\.\d MB of pages and files: an export holds at most 1 MB \(EXPORT_MAX_MB\)$/,
  );
  // Two exports an hour from one address: the refused one counted, the third is a 429.
  const third = await app.request("/w/lab@v1/-/export");
  assert.equal(third.status, 429);
  assert.ok(Number(third.headers.get("retry-after")) > 3000);
});

Deno.test("earlier versions count against the bytes quota, and deleting one for good frees its room", async () => {
  await using db = await freshDb();
  const { app } = testApp(db, { ...roomy, SPACE_FILES_MB: "1" });
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "lab", ownerAccountId: ana.id });
  const { token } = await createToken(db, { accountId: ana.id, kind: "account", name: "files" });
  const auth = { Authorization: `Bearer ${token}` };
  const replace = async (seed: number) => {
    const form = new FormData();
    form.set("file", new File([png(400_000, seed)], "a.png"));
    form.set("replace", "true");
    const res = await app.request("/api/v1/spaces/lab/files", {
      method: "POST",
      body: form,
      headers: auth,
    });
    return { status: res.status, body: await res.json() };
  };
  // A loop of replaces (or of upload and delete) kept every old copy outside the quota: the
  // space stored without bound. Now the kept copies count.
  assert.equal((await replace(1)).status, 201);
  assert.equal((await replace(2)).status, 201); // 0.4 MB file + 0.4 MB version
  const refused = await replace(3);
  assert.equal(refused.status, 413, JSON.stringify(refused.body));
  assert.match(
    refused.body.detail,
    /past its quota: 0\.8 MB of 1 MB used \(0\.8 MB of it earlier versions of files/,
  );
  const page = await html(await ana.get("/w/lab/-/files"), 200);
  assert.match(page, /1 of 200 files, 0\.8 MB of 1 MB used/);
  assert.match(page, /Earlier versions of files take 0\.4 MB of it/);
  assert.match(page, /<th>Earlier versions<\/th>/);
  // Deleting the file keeps its bytes, so it frees nothing; deleting the version frees it.
  const gone = await deleteVersion(app, auth);
  assert.equal(gone.status, 204);
  const again = await deleteVersion(app, auth);
  assert.equal(again.status, 404);
  assert.equal((await replace(3)).status, 201);
  const [kept] = await db<{ n: number }>`SELECT count(*)::int AS n FROM attachment_versions`;
  assert.equal(kept!.n, 1, "the replaced bytes are kept again");
});

Deno.test("only an owner or admin deletes an earlier version for good", async () => {
  await using db = await freshDb();
  const { app } = testApp(db, roomy);
  const ana = await person(app, db, "ana@example.com", "Ana");
  const bo = await person(app, db, "bo@example.com", "Bo");
  await createTeam(db, { id: "lab-team", name: "Lab", ownerAccountId: ana.id });
  await addTeamMember(db, {
    actorId: ana.id,
    teamId: "lab-team",
    email: "bo@example.com",
    role: "member",
  });
  await createWiki(db, { id: "lab", ownerTeamId: "lab-team" });
  const tokenOf = async (id: string) =>
    (await createToken(db, { accountId: id, kind: "account", name: "files" })).token;
  const bos = { Authorization: `Bearer ${await tokenOf(bo.id)}` };
  for (const seed of [1, 2]) {
    const form = new FormData();
    form.set("file", new File([png(1000, seed)], "a.png"));
    form.set("replace", "true");
    const res = await app.request("/api/v1/spaces/lab/files", {
      method: "POST",
      body: form,
      headers: bos,
    });
    assert.equal(res.status, 201);
  }
  const byMember = await deleteVersion(app, bos);
  assert.equal(byMember.status, 403);
  const byOwner = await app.request("/api/v1/spaces/lab/files/a.png?version=1", {
    method: "DELETE",
    headers: { Authorization: `Bearer ${await tokenOf(ana.id)}` },
  });
  assert.equal(byOwner.status, 204);
});

/** DELETE of `a.png`'s version 1 in space `lab`, as the REST API's caller with `headers`. */
function deleteVersion(
  app: { request(path: string, init: RequestInit): Response | Promise<Response> },
  headers: HeadersInit,
) {
  return app.request("/api/v1/spaces/lab/files/a.png?version=1", { method: "DELETE", headers });
}
