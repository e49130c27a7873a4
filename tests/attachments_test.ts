import assert from "node:assert/strict";
import { unzipSync, zipSync } from "fflate";
import type { Hono } from "hono";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb } from "./helpers.ts";
import { html, type Person, person, seedPages, spaceApp } from "./space_helpers.ts";

/** The first bytes of a PNG, then filler: enough for the type check. */
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

/** Posts one file to a wiki's files as the upload form (or, with `json`, the editor's script) does. */
async function upload(
  app: Hono,
  who: Person,
  wikiId: string,
  file: File,
  json = false,
): Promise<Response> {
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

Deno.test("an uploaded image is stored in the database and served with its type, an ETag and nosniff under the space's access rules", async () => {
  await using db = await freshDb();
  const { app } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "lab", visibility: "private", ownerAccountId: ana.id });

  const res = await upload(app, ana, "lab", new File([PNG], "My chart.png"));
  assert.equal(res.status, 303);
  assert.equal(
    res.headers.get("location"),
    "/w/lab/-/files?uploaded=My-chart.png&status=created",
  );
  const listed = await html(await ana.get("/w/lab/-/files?uploaded=My-chart.png"), 200);
  assert.match(
    listed,
    /<code id="uploaded-markdown">!\[My-chart.png\]\(\/w\/lab\/-\/files\/My-chart.png\)<\/code>/,
  );

  const [row] = await db<{ size: number; content_type: string }>`
    SELECT size, content_type FROM attachments WHERE wiki_id = 'lab' AND name = 'My-chart.png'`;
  assert.deepEqual(row, { size: PNG.length, content_type: "image/png" });

  const file = await ana.get("/w/lab/-/files/My-chart.png");
  assert.equal(file.status, 200);
  assert.equal(file.headers.get("content-type"), "image/png");
  assert.equal(file.headers.get("x-content-type-options"), "nosniff");
  assert.match(file.headers.get("content-security-policy") ?? "", /sandbox/);
  assert.equal(file.headers.get("cache-control"), "private, no-cache");
  assert.deepEqual(new Uint8Array(await file.arrayBuffer()), PNG);
  const etag = file.headers.get("etag")!;
  assert.match(etag, /^"[0-9a-f]{64}"$/);
  const again = await ana.get("/w/lab/-/files/My-chart.png", { "if-none-match": etag });
  assert.equal(again.status, 304);
  await again.body?.cancel();

  // Private: signed out, sign in first; another person finds nothing.
  // (A sign-in redirect or a 404 page, as the web app answers signed-out visitors.)
  const anonymous = await app.request("/w/lab/-/files/My-chart.png");
  assert.ok([303, 404].includes(anonymous.status), String(anonymous.status));
  assert.notEqual(anonymous.headers.get("content-type"), "image/png");
  await anonymous.body?.cancel();
  const bo = await person(app, db, "bo@example.com", "Bo");
  const other = await bo.get("/w/lab/-/files/My-chart.png");
  assert.equal(other.status, 404);
  await other.body?.cancel();
  const refused = await upload(app, bo, "lab", new File([PNG], "x.png"));
  assert.equal(refused.status, 404);
  await refused.body?.cancel();

  // The editor's script gets JSON; the files go with their wiki.
  const viaScript = await upload(app, ana, "lab", new File([PNG], "pasted.png"), true);
  assert.equal(viaScript.status, 201);
  assert.deepEqual(await viaScript.json(), {
    name: "pasted.png",
    href: "/w/lab/-/files/pasted.png",
    contentType: "image/png",
    status: "created",
  });
  await db`DELETE FROM wikis WHERE id = 'lab'`;
  const [left] = await db<{ n: number }>`SELECT count(*)::int AS n FROM attachments`;
  assert.equal(left!.n, 0);
});

Deno.test("uploads are refused by content type (SVG and disguised files), size and name, with a clear message", async () => {
  await using db = await freshDb();
  const { app } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "lab", visibility: "public", ownerAccountId: ana.id });
  const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
  const cases: [File, number, RegExp][] = [
    [new File([svg], "logo.svg"), 415, /SVG is not accepted/],
    [new File(["<html><script>alert(1)</script>"], "photo.png"), 415, /is not a PNG/],
    [new File([PNG], "chart.jpg"), 415, /is not a PNG/],
    [new File([new Uint8Array(5 * 1024 * 1024 + 1).fill(0x89)], "big.png"), 413, /over 5 MB/],
    [new File([PNG], "..."), 400, /cannot be used/],
  ];
  for (const [file, status, message] of cases) {
    const res = await upload(app, ana, "lab", file);
    const body = await res.text();
    assert.equal(res.status, status, `${file.name}: ${body.slice(0, 200)}`);
    assert.match(body, message, file.name);
  }
  const [count] = await db<{ n: number }>`SELECT count(*)::int AS n FROM attachments`;
  assert.equal(count!.n, 0);

  // A public wiki's file is cached by anyone for a few minutes.
  assert.equal((await upload(app, ana, "lab", new File([PNG], "ok.png"))).status, 303);
  const file = await app.request("/w/lab/-/files/ok.png");
  assert.equal(file.status, 200);
  assert.equal(file.headers.get("cache-control"), "public, max-age=300");
  await file.body?.cancel();
});

Deno.test("a zip import keeps its images as the wiki's files and points the pages at them", async () => {
  await using db = await freshDb();
  const { app } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "lab", visibility: "private", ownerAccountId: ana.id });
  const text = (s: string) => new TextEncoder().encode(s);
  const zip = zipSync({
    "docs/Guides/Setup.md": text(
      "# Setup\n\n![The chart](../images/chart.png) and ![root](images/chart.png) " +
        "and [a site](https://example.com/x.png).\n",
    ),
    "docs/images/chart.png": PNG,
    "docs/images/fake.png": text("not an image"),
  });
  const res = await ana.upload("/w/lab/-/import", [new File([zip], "docs.zip")]);
  const report = await html(res, 200);
  assert.match(report, /docs\.zip: images\/chart\.png/);
  assert.match(report, /docs\.zip: images\/fake\.png[\s\S]*?is not a PNG/);
  const [page] = await db<{ markdown: string }>`
    SELECT markdown FROM pages WHERE wiki_id = 'lab' AND path = 'Guides/Setup'`;
  assert.equal(
    page!.markdown,
    "# Setup\n\n![The chart](/w/lab/-/files/images-chart.png) and " +
      "![root](/w/lab/-/files/images-chart.png) and [a site](https://example.com/x.png).\n",
  );
  const file = await ana.get("/w/lab/-/files/images-chart.png");
  assert.equal(file.status, 200);
  assert.deepEqual(new Uint8Array(await file.arrayBuffer()), PNG);
  const shown = await html(await ana.get("/w/lab/Guides/Setup"), 200);
  assert.match(shown, /<img src="\/w\/lab\/-\/files\/images-chart.png" alt="The chart"/);
});

Deno.test("a wiki exported as a zip of markdown with its files imports into a new space with identical pages and files", async () => {
  await using db = await freshDb();
  const { app, deps } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "lab", visibility: "private", ownerAccountId: ana.id });
  await createWiki(db, { id: "lab2", visibility: "private", ownerAccountId: ana.id });
  assert.equal((await upload(app, ana, "lab", new File([PNG], "chart.png"))).status, 303);
  await seedPages(deps, "lab", {
    "Home": "# Home\n\n![chart](/w/lab/-/files/chart.png)\n\nSee [[Guides/Setup]].\n",
    "Guides/Setup": "# Setup\n\nThe chart: ![c](/w/lab/-/files/chart.png)\n",
    "Guides/Deep/Tuning": "# Tuning\n\nNo image.\n",
  });

  const exported = await ana.get("/w/lab/-/export");
  assert.equal(exported.status, 200);
  assert.equal(exported.headers.get("content-type"), "application/zip");
  assert.match(exported.headers.get("content-disposition") ?? "", /filename="lab\.zip"/);
  const zip = new Uint8Array(await exported.arrayBuffer());
  const files = unzipSync(zip);
  assert.deepEqual(Object.keys(files).sort(), [
    "lab/Guides/Deep/Tuning.md",
    "lab/Guides/Setup.md",
    "lab/Home.md",
    "lab/chart.png",
  ]);
  assert.match(
    new TextDecoder().decode(files["lab/Guides/Setup.md"]),
    /!\[c\]\(\.\.\/chart\.png\)/,
  );
  const anonymous = await app.request("/w/lab/-/export");
  assert.ok([303, 404].includes(anonymous.status));
  await anonymous.body?.cancel();

  await html(await ana.upload("/w/lab2/-/import", [new File([zip], "lab.zip")]), 200);
  const pagesOf = async (id: string) =>
    (await db<{ path: string; markdown: string }>`
      SELECT path, markdown FROM pages WHERE wiki_id = ${id} ORDER BY path`)
      .map((p) => ({ ...p, markdown: p.markdown.replaceAll(`/w/${id}/`, "/w/<id>/") }));
  assert.deepEqual(await pagesOf("lab2"), await pagesOf("lab"));
  const copy = await ana.get("/w/lab2/-/files/chart.png");
  assert.deepEqual(new Uint8Array(await copy.arrayBuffer()), PNG);
});
