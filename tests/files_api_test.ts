import assert from "node:assert/strict";
import { unzipSync, zipSync } from "fflate";
import type { Hono } from "hono";
import { createToken } from "../src/auth/tokens.ts";
import type { Db } from "../src/db/db.ts";
import { createLog } from "../src/lib/log.ts";
import { openDeps } from "../src/server.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, migratedDataDir, testConfig } from "./helpers.ts";
import { html, person, seedPages, spaceApp } from "./space_helpers.ts";

/** The first bytes of a PNG, then filler: enough for the type check. */
const png = (...tail: number[]) =>
  new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...tail]);
/** A PNG one byte over the 5 MB limit. */
function big(): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(5 * 1024 * 1024 + 1);
  bytes.set(png());
  return bytes;
}
const PDF = new TextEncoder().encode("%PDF-1.4\n% a small pdf\n") as Uint8Array<ArrayBuffer>;

async function rest(app: Hono, db: Db, accountId: string) {
  const { token } = await createToken(db, { accountId, kind: "account", name: "files" });
  return (method: string, path: string, body?: BodyInit, headers: Record<string, string> = {}) =>
    app.request(`/api/v1${path}`, {
      method,
      body,
      headers: { Authorization: `Bearer ${token}`, ...headers },
    });
}

function fileForm(name: string, bytes: Uint8Array<ArrayBuffer>, replace = false): FormData {
  const form = new FormData();
  form.set("file", new File([bytes], name));
  if (replace) form.set("replace", "true");
  return form;
}

/** Every page (markdown) and file (bytes) of a wiki, its own id in links written as `<id>`. */
async function contentsOf(db: Db, wikiId: string) {
  const pages = await db<{ path: string; markdown: string }>`
    SELECT path, markdown FROM pages WHERE wiki_id = ${wikiId} ORDER BY path`;
  const files = await db<{ name: string; bytes: Uint8Array; content_type: string }>`
    SELECT name, bytes, content_type FROM attachments WHERE wiki_id = ${wikiId} ORDER BY name`;
  return {
    pages: pages.map((p) => ({
      path: p.path,
      markdown: p.markdown.replaceAll(`/w/${wikiId}/`, "/w/<id>/"),
    })),
    files: files.map((f) => ({
      name: f.name,
      type: f.content_type,
      bytes: [...new Uint8Array(f.bytes)],
    })),
  };
}

Deno.test("a zip exported from the web app imports through REST and through deno task import with every page and file, byte for byte", async () => {
  await using db = await freshDb();
  const { app, deps } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  for (const id of ["lab", "lab2"]) {
    await createWiki(db, { id, visibility: "private", ownerAccountId: ana.id });
  }
  const call = await rest(app, db, ana.id);
  for (const [name, bytes] of [["chart.png", png(1, 2, 3)], ["spec.pdf", PDF]] as const) {
    assert.equal((await call("POST", "/spaces/lab/files", fileForm(name, bytes))).status, 201);
  }
  await seedPages(deps, "lab", {
    "Home": "# Home\n\n![chart](/w/lab/-/files/chart.png)\n\nSee [[Guides/Setup]].\n",
    "Guides/Setup": "# Setup\n\nThe chart: ![c](/w/lab/-/files/chart.png) and " +
      "[the spec](/w/lab/-/files/spec.pdf)\n",
  });
  const exported = await ana.get("/w/lab/-/export");
  assert.equal(exported.status, 200);
  const zip = new Uint8Array(await exported.arrayBuffer());
  const original = await contentsOf(db, "lab");
  assert.equal(original.files.length, 2);

  // REST: the same zip gives back every page and file, links pointed at the new space's files.
  const imported = await call("POST", "/spaces/lab2/import", zip, {
    "Content-Type": "application/zip",
  });
  assert.equal(imported.status, 200);
  const report = await imported.json();
  assert.equal(report.added, 2);
  assert.deepEqual(report.failed, []);
  assert.deepEqual(
    report.files.map((f: { file: string; status: string }) => [f.file, f.status]),
    [["chart.png", "created"], ["spec.pdf", "created"]],
  );
  assert.deepEqual(report.skipped, []);
  assert.deepEqual(await contentsOf(db, "lab2"), original);
  const image = await app.request("/api/v1/spaces/lab2/files/chart.png");
  assert.equal(image.status, 401, "files need the token, as every space route");
  await image.body?.cancel();

  // deno task import of the same zip, into a store of its own.
  const dataDir = await migratedDataDir("import_task_");
  const zipPath = `${dataDir}/lab.zip`;
  await Deno.writeFile(zipPath, zip);
  const env = { SEED_DOCS: "false", DATA_DIR: dataDir, DATABASE_URL: db.url ?? "" };
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["task", "import", "lab3", zipPath],
      cwd: new URL("../", import.meta.url),
      env: { ...env, NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const said = new TextDecoder().decode(out.stdout);
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    assert.match(said, /2 added.*2 files, 0 failed, 0 entries skipped/);
    const other = await openDeps(testConfig(env), createLog("error"));
    try {
      assert.deepEqual(await contentsOf(other.db, "lab3"), original);
    } finally {
      await other.db.close();
    }
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("every import reports the entries it skipped, and keeps a file whose name holds other bytes", async () => {
  await using db = await freshDb();
  const { app } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "lab", visibility: "private", ownerAccountId: ana.id });
  const call = await rest(app, db, ana.id);
  await call("POST", "/spaces/lab/files", fileForm("chart.png", png(9, 9)));
  const text = (s: string) => new TextEncoder().encode(s);
  const zip = zipSync({
    "site/Home.md": text("# Home\n\n![c](chart.png)\n"),
    "site/chart.png": png(1, 1),
    "site/notes.txt": text("not imported"),
    "site/logo.svg": text("<svg/>"),
  });
  const report = await (await call("POST", "/spaces/lab/import", zip, {
    "Content-Type": "application/zip",
  })).json();
  assert.deepEqual(report.skipped.map((s: { name: string }) => s.name), [
    "site/notes.txt",
    "site/logo.svg",
  ]);
  assert.match(report.skipped[0].reason, /not markdown, an image/);
  assert.deepEqual(report.files, [
    { name: "chart.png", file: "chart-2.png", status: "renamed", reason: null },
  ]);
  const page = await (await call("GET", "/spaces/lab/pages/Home")).json();
  assert.match(page.markdown, /!\[c\]\(\/w\/lab\/-\/files\/chart-2\.png\)/);
  const first = await call("GET", "/spaces/lab/files/chart.png");
  assert.deepEqual(new Uint8Array(await first.arrayBuffer()), png(9, 9), "the first is kept");

  // The web import reports them too.
  const web = await html(await ana.upload("/w/lab/-/import", [new File([zip], "site.zip")]), 200);
  assert.match(web, /site\.zip: site\/notes\.txt<\/td><td>Skipped<\/td><td>is not markdown/);
});

Deno.test("REST files: list, upload, read and delete under /spaces/{id}/files, with the web upload's limits", async () => {
  await using db = await freshDb();
  const { app } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  const bo = await person(app, db, "bo@example.com", "Bo");
  await createWiki(db, { id: "lab", visibility: "private", ownerAccountId: ana.id });
  const call = await rest(app, db, ana.id);
  const stranger = await rest(app, db, bo.id);

  const up = await call("POST", "/spaces/lab/files", fileForm("a=b.png", png(1)));
  assert.equal(up.status, 201);
  const saved = await up.json();
  assert.equal(saved.name, "a-b.png", "a name holding = is kept whole");
  assert.equal(saved.status, "created");
  assert.equal(saved.href, "/w/lab/-/files/a-b.png");

  const listed = await (await call("GET", "/spaces/lab/files")).json();
  assert.deepEqual(listed.files.map((f: { name: string; size: number }) => [f.name, f.size]), [
    ["a-b.png", 9],
  ]);
  const read = await call("GET", "/spaces/lab/files/a-b.png");
  assert.equal(read.status, 200);
  assert.equal(read.headers.get("content-type"), "image/png");
  assert.equal(read.headers.get("x-content-type-options"), "nosniff");
  assert.deepEqual(new Uint8Array(await read.arrayBuffer()), png(1));

  const refused: [FormData | string, Record<string, string>, number, RegExp][] = [
    [fileForm("logo.svg", new TextEncoder().encode("<svg/>")), {}, 415, /SVG is not accepted/],
    [fileForm("big.png", big()), {}, 413, /over/],
    ["{}", { "Content-Type": "application/json" }, 415, /multipart\/form-data/],
  ];
  for (const [body, headers, status, message] of refused) {
    const res = await call("POST", "/spaces/lab/files", body, headers);
    const problem = await res.json();
    assert.equal(res.status, status, JSON.stringify(problem));
    assert.match(problem.detail, message);
  }
  for (
    const [method, path] of [["GET", "/spaces/lab/files"], ["GET", "/spaces/lab/files/a-b.png"]]
  ) {
    const res = await stranger(method!, path!);
    assert.equal(res.status, 404, `${method} ${path} by a stranger`);
    await res.body?.cancel();
  }
  const theirs = await stranger("POST", "/spaces/lab/files", fileForm("x.png", png(2)));
  assert.equal(theirs.status, 404);
  await theirs.body?.cancel();

  assert.equal((await call("DELETE", "/spaces/lab/files/a-b.png")).status, 204);
  const gone = await call("GET", "/spaces/lab/files/a-b.png");
  assert.equal(gone.status, 404);
  await gone.body?.cancel();
  const kept = await call("GET", "/spaces/lab/files/a-b.png?version=1");
  assert.deepEqual(new Uint8Array(await kept.arrayBuffer()), png(1), "a delete keeps the bytes");
  const missing = await call("DELETE", "/spaces/lab/files/a-b.png");
  assert.equal(missing.status, 404);
  await missing.body?.cancel();

  const document = await (await app.request("/api/v1/openapi.json")).json();
  assert.deepEqual(Object.keys(document.paths["/spaces/{id}/files"]).sort(), ["get", "post"]);
  assert.deepEqual(Object.keys(document.paths["/spaces/{id}/files/{name}"]).sort(), [
    "delete",
    "get",
  ]);
  assert.ok(document.paths["/spaces/{id}/files"].post.requestBody.content["multipart/form-data"]);
});

Deno.test("an upload under a taken name never overwrites: both are kept, and an explicit replace keeps the old bytes", async () => {
  await using db = await freshDb();
  const { app } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "lab", visibility: "private", ownerAccountId: ana.id });
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await (await ana.get("/account")).text())![1]!;
  const cookie = [...ana.jar].map(([n, v]) => `${n}=${v}`).join("; ");
  // Two screenshots pasted into the editor, both named image.png by the browser.
  const paste = async (bytes: Uint8Array<ArrayBuffer>, extra: Record<string, string> = {}) => {
    const form = fileForm("image.png", bytes);
    form.set("_csrf", csrf);
    for (const [k, v] of Object.entries(extra)) form.set(k, v);
    const res = await app.request("/w/lab/-/files", {
      method: "POST",
      body: form,
      headers: { cookie, accept: "application/json" },
    }, { remoteAddr: { hostname: "192.0.2.1", port: 40000, transport: "tcp" } });
    assert.equal(res.status, 201);
    return await res.json();
  };
  const first = await paste(png(1));
  const second = await paste(png(2));
  assert.deepEqual(first, {
    name: "image.png",
    href: "/w/lab/-/files/image.png",
    contentType: "image/png",
    status: "created",
  });
  assert.equal(second.name, "image-2.png");
  assert.equal(second.href, "/w/lab/-/files/image-2.png", "the editor's line points at it");
  assert.equal(second.status, "renamed");
  const again = await paste(png(2));
  assert.deepEqual(
    [again.name, again.status],
    ["image-2.png", "unchanged"],
    "same bytes, same file",
  );
  const bytesOf = async (path: string) => new Uint8Array(await (await ana.get(path)).arrayBuffer());
  assert.deepEqual(await bytesOf("/w/lab/-/files/image.png"), png(1));
  assert.deepEqual(await bytesOf("/w/lab/-/files/image-2.png"), png(2));

  // An explicit replace: the new bytes under the name, the old ones kept as version 1.
  const replaced = await paste(png(3), { replace: "true" });
  assert.equal(replaced.status, "replaced");
  assert.deepEqual(await bytesOf("/w/lab/-/files/image.png"), png(3));
  assert.deepEqual(await bytesOf("/w/lab/-/files/image.png?version=1"), png(1));
  const page = await html(await ana.get("/w/lab/-/files"), 200);
  assert.match(page, /href="\/w\/lab\/-\/files\/image\.png\?version=1"/);
});

Deno.test("a web upload named with = keeps its whole name", async () => {
  await using db = await freshDb();
  const { app } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "lab", visibility: "private", ownerAccountId: ana.id });
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await (await ana.get("/account")).text())![1]!;
  const form = fileForm("a=b.png", png(1));
  form.set("_csrf", csrf);
  const res = await app.request("/w/lab/-/files", {
    method: "POST",
    body: form,
    headers: { cookie: [...ana.jar].map(([n, v]) => `${n}=${v}`).join("; ") },
  }, { remoteAddr: { hostname: "192.0.2.1", port: 40000, transport: "tcp" } });
  assert.equal(res.status, 303);
  assert.match(res.headers.get("location") ?? "", /uploaded=a-b\.png/);
  const zip = unzipSync(new Uint8Array(await (await ana.get("/w/lab/-/export")).arrayBuffer()));
  assert.deepEqual(Object.keys(zip), ["lab/a-b.png"]);
});
