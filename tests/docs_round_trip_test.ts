import assert from "node:assert/strict";
import { unzipSync, zipSync } from "fflate";
import { createAccount } from "../src/accounts/accounts.ts";
import { exportWikiZip } from "../src/attachments/export_zip.ts";
import { loadSpaceNav } from "../src/pages/load_space_nav.ts";
import { importUploads } from "../src/spaces/import_uploads.ts";
import { readingOrder } from "../src/markdown/page_tree.ts";
import { listPages } from "../src/pages/list_pages.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, testApp, testDeps } from "./helpers.ts";
import { startGitServer } from "./git_server.ts";
import { connectGitSource } from "../src/sync/connect_source.ts";
import { syncSpace } from "../src/sync/run_sync.ts";

const FIXTURES = new URL("./fixtures/docs_formats/", import.meta.url).pathname;
// A 1×1 PNG, as a docs folder keeps its images beside the pages.
const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  ),
  (c) => c.charCodeAt(0),
);

/** A fixture folder's files (its licence note left out), by path. */
async function filesOf(dir: string): Promise<Record<string, Uint8Array>> {
  const out: Record<string, Uint8Array> = {};
  const walk = async (at: string, rel: string) => {
    for await (const entry of Deno.readDir(at)) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory) await walk(`${at}/${entry.name}`, path);
      else if (entry.name !== "LICENCE.txt") out[path] = await Deno.readFile(`${at}/${entry.name}`);
    }
  };
  await walk(dir, "");
  return out;
}

/** The files of an export, without its top folder. */
/** A wiki's export (a stream, as the route sends it) as bytes. */
async function zipBytes(deps: Parameters<typeof exportWikiZip>[0], wikiId: string) {
  return new Uint8Array(await new Response(await exportWikiZip(deps, wikiId)).arrayBuffer());
}

function exported(zip: Uint8Array): Record<string, Uint8Array> {
  const out: Record<string, Uint8Array> = {};
  for (const [name, bytes] of Object.entries(unzipSync(zip))) {
    out[name.slice(name.indexOf("/") + 1)] = bytes;
  }
  return out;
}

for (const format of ["gitbook", "mkdocs", "docusaurus", "mintlify"]) {
  Deno.test(`${format}: export → import → export gives back the source's files and order`, async () => {
    await using db = await freshDb();
    const deps = testDeps(db);
    const ada = await createAccount(db, { email: "ada@example.com" });
    await createWiki(db, { id: "one" });
    await createWiki(db, { id: "two" });
    const source = await filesOf(`${FIXTURES}${format}`);
    source["img/team.png"] = PNG;
    const upload = new File([zipSync({ site: source } as never)], `${format}.zip`);
    const first = await importUploads(deps, "one", [upload], ada.id);
    assert.deepEqual(first.summary.failed, []);
    const once = exported(await zipBytes(deps, "one"));
    const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    assert.deepEqual(
      Object.keys(once).sort(),
      Object.keys(source).sort(),
      "the same files, at the same paths (img/team.png stays img/team.png)",
    );
    for (const [name, bytes] of Object.entries(source)) {
      assert.equal(text(once[name]!), text(bytes), name);
    }
    const again = new File([zipSync({ site: once } as never)], "again.zip");
    await importUploads(deps, "two", [again], ada.id);
    assert.deepEqual(exported(await zipBytes(deps, "two")), once);
    const order = async (id: string) =>
      readingOrder((await loadSpaceNav(deps, id)).tree).map((p) => p.path);
    assert.deepEqual(await order("two"), await order("one"));
    const listed = await listPages(deps, "one", {});
    assert.deepEqual(listed.pages.map((p) => p.page), await order("one"), "list_pages follows it");
  });
}

Deno.test("Git sync reads the same shape: an MkDocs repository's nav orders the synced space", async () => {
  await using git = await startGitServer();
  await using db = await freshDb();
  const { deps } = testApp(db, { SYNC_SCHEDULER: "false", SYNC_ALLOW_HOSTS: git.host });
  const ada = await createAccount(db, { email: "ada@example.com" });
  await createWiki(db, { id: "site", visibility: "private", ownerAccountId: ada.id });
  const repo = await git.createRepo("site");
  for (const [name, bytes] of Object.entries(await filesOf(`${FIXTURES}mkdocs`))) {
    await repo.write(name, new TextDecoder().decode(bytes));
  }
  await repo.commit("the site");
  await connectGitSource(deps, "site", { url: git.url("site"), branch: "main", folder: "" });
  const synced = await syncSpace(deps, "site");
  assert.deepEqual(synced.failed, []);
  const order = readingOrder((await loadSpaceNav(deps, "site")).tree);
  assert.deepEqual(order.map((p) => `${p.title} [${p.path}]`), [
    "Home [index]",
    "Installation [getting-started]",
    "Reference [reference/index]",
    "Content tabs [reference/content-tabs]",
    "Admonitions [reference/admonitions]",
  ]);
  assert.equal(
    Object.keys(exported(await zipBytes(deps, "site"))).includes("mkdocs.yml"),
    true,
  );
});
