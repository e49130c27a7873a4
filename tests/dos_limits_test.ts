import assert from "node:assert/strict";
import { zipSync } from "fflate";
import { createAccount } from "../src/accounts/accounts.ts";
import { createToken } from "../src/auth/tokens.ts";
import { readZip } from "../src/importer/read_sources.ts";
import { ZIP_LIMITS, ZipLimitError } from "../src/importer/read_zip.ts";
import type { AppError } from "../src/errors.ts";
import { getPageContent } from "../src/pages/get_page_content.ts";
import { renamePage } from "../src/pages/rename_page.ts";
import { MAX_MARKDOWN_CHARS, writePage } from "../src/pages/write_page.ts";
import { MAX_LINKS } from "../src/markdown/links.ts";
import { renderPage } from "../src/spaces/render_page.ts";
import { MAX_UPLOAD_BYTES } from "../src/spaces/import_uploads.ts";
import { renderMarkdown } from "../src/spaces/render_markdown.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { browser } from "./browser.ts";
import { freshDb, testApp, testDeps } from "./helpers.ts";
import { person, spaceApp } from "./space_helpers.ts";

// Denial of service limits (docs/security.md): each test holds one limit or one linear path.

/** Counts the calls of some array methods while `run` runs. */
function countArrayCalls<T>(names: ("findIndex" | "splice")[], run: () => T) {
  const proto = Array.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  const saved = names.map((name) => [name, proto[name]!] as const);
  const calls: Record<string, number> = {};
  for (const [name, original] of saved) {
    calls[name] = 0;
    proto[name] = function (this: unknown, ...args: unknown[]) {
      calls[name]!++;
      return original.apply(this, args);
    };
  }
  try {
    return { result: run(), calls };
  } finally {
    for (const [name, original] of saved) proto[name] = original;
  }
}

Deno.test("a page of 40,000 missing relative links renders in one pass, each marked missing", () => {
  const markdown = "[a](q.md) ".repeat(40_000);
  const context = { wikiId: "kb", path: "P", targets: new Map(), canCreate: false };
  const { result: html, calls } = countArrayCalls(
    ["findIndex", "splice"],
    () => renderMarkdown(markdown, context),
  );
  const note = '<span class="sr-only"> (page not written yet)</span></a>';
  assert.equal(html.split(note).length - 1, 40_000, "every link closes with its note");
  assert.equal(html.split('<a href="/w/kb/q" class="missing"').length - 1, 40_000);
  // The quadratic version searched the link's children from the start and spliced the note
  // in, once per missing link: 40,000 of each.
  assert.ok(calls.findIndex! < 100, `findIndex called ${calls.findIndex} times`);
  assert.ok(calls.splice! < 100, `splice called ${calls.splice} times`);
});

Deno.test("a page of the largest size renders, links and all", () => {
  const markdown = "[a](q.md) [[W]] ".repeat(Math.floor(MAX_MARKDOWN_CHARS / 16));
  assert.ok(markdown.length <= MAX_MARKDOWN_CHARS && markdown.length > MAX_MARKDOWN_CHARS - 16);
  const html = renderMarkdown(markdown, {
    wikiId: "kb",
    path: "P",
    targets: new Map([["w", { path: "W", title: "W" }]]),
    canCreate: false,
  });
  assert.equal(html.split('<a href="/w/kb/W">W</a>').length - 1, markdown.length / 16);
});

Deno.test("a preview over the page-size cap is refused with 413, as a save is", async () => {
  await using db = await freshDb();
  const { app } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "kb", ownerAccountId: ana.id });
  const big = "x".repeat(MAX_MARKDOWN_CHARS + 1);

  const fragment = await ana.submit("/w/kb/-/preview", { path: "P", markdown: big });
  assert.equal(fragment.status, 413);
  assert.match(await fragment.text(), /over 2000000 characters, the most a page may hold/);

  const noScript = await ana.submit("/w/kb/-/new", { path: "P", markdown: big, action: "preview" });
  assert.equal(noScript.status, 413);
  assert.match(await noScript.text(), /over 2000000 characters, the most a page may hold/);

  const links = "[a](q.md) ".repeat(MAX_LINKS + 1);
  const manyLinks = await ana.submit("/w/kb/-/preview", { path: "P", markdown: links });
  assert.equal(manyLinks.status, 413);
  assert.match(await manyLinks.text(), /5001 links: at most 5000 per page/);

  const fits = await ana.submit("/w/kb/-/preview", { path: "P", markdown: "# Fits" });
  assert.equal(fits.status, 200);
});

Deno.test("uploaded file names keep their '=' and ';'", async () => {
  await using db = await freshDb();
  const { app } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "kb", ownerAccountId: ana.id });
  const encode = (text: string) => new TextEncoder().encode(text);
  const res = await ana.upload("/w/kb/-/import", [
    new File([encode("# A\n\nx")], "a=b.md"),
    new File([encode("# C\n\ny")], "c;d=e.md"),
  ]);
  const page = await res.text();
  assert.equal(res.status, 200, page.slice(0, 500));
  assert.match(page, /2 created, 0 updated, 0 unchanged, 0 failed\./);
  const paths = await db<{ path: string }>`SELECT path FROM pages ORDER BY path`;
  assert.deepEqual(paths.map((p) => p.path), ["a=b", "c;d=e"]);
});

/**
 * A zip of `entries` entries of `bytes` zeros each, whose directory and local headers claim
 * each inflates to 1 byte: only counting while inflating can catch it.
 */
function zipBomb(entries: number, bytes: number): Uint8Array<ArrayBuffer> {
  const zeros = new Uint8Array(bytes);
  const files: Record<string, Uint8Array> = {};
  for (let i = 0; i < entries; i++) files[`bomb${i}.md`] = zeros;
  const zip = zipSync(files, { level: 9 });
  const view = new DataView(zip.buffer);
  for (let at = 0; at + 4 <= zip.length; at++) {
    const sig = view.getUint32(at, true);
    if (sig === 0x04034b50) view.setUint32(at + 22, 1, true);
    if (sig === 0x02014b50) view.setUint32(at + 24, 1, true);
  }
  return new Uint8Array(zip);
}

function limitError(run: () => unknown): ZipLimitError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ZipLimitError, String(error));
    return error;
  }
  assert.fail("the archive was read");
}

Deno.test("a zip entry that inflates past the entry limit is refused, naming it and the limit", () => {
  const limits = { entryBytes: 64 * 1024, totalBytes: 1024 * 1024, entries: 10 };
  const error = limitError(() => readZip(zipBomb(1, 16 * 1024 * 1024), limits));
  assert.equal(
    error.message,
    'Entry "bomb0.md" inflates to more than 65536 bytes, the most one entry may hold',
  );
  // Refused while inflating: at most the limit and one slice's output (4 KiB in, ~4 MiB out).
  assert.ok(error.inflated <= 64 * 1024 + 4_300_000, `inflated ${error.inflated} bytes`);
  assert.ok(error.inflated < 16 * 1024 * 1024);
});

Deno.test("a zip past the total or the entry-count limit is refused", () => {
  const limits = { entryBytes: 64 * 1024, totalBytes: 100 * 1024, entries: 3 };
  const total = limitError(() => readZip(zipBomb(3, 40 * 1024), limits));
  assert.equal(
    total.message,
    'The archive inflates to more than 102400 bytes (at entry "bomb2.md"), the most one import may hold',
  );
  assert.ok(total.inflated <= 120 * 1024);
  const count = limitError(() => readZip(zipBomb(4, 10), limits));
  assert.equal(
    count.message,
    'The archive holds more than 3 markdown files, the most one import reads (refused at entry "bomb3.md")',
  );
  // Within the limits the pages come through.
  assert.equal(readZip(zipBomb(3, 10), limits).length, 3);
});

Deno.test("the default limits refuse a bomb of four 32 MiB entries through REST and web import", async () => {
  const bomb = zipBomb(4, 32 * 1024 * 1024);
  assert.ok(bomb.length < 200 * 1024, `the bomb is ${bomb.length} bytes`);
  const error = limitError(() => readZip(bomb));
  assert.match(error.message, /^Entry "bomb0\.md" inflates to more than 8388608 bytes/);
  assert.ok(error.inflated <= ZIP_LIMITS.entryBytes + 4_300_000);

  await using db = await freshDb();
  const { app } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "kb", ownerAccountId: ana.id });
  const web = await ana.upload("/w/kb/-/import", [new File([bomb], "bomb.zip")]);
  const page = await web.text();
  assert.equal(web.status, 200);
  assert.match(page, /0 created, 0 updated, 0 unchanged, 1 failed\./);
  assert.match(page, /Entry &quot;bomb0\.md&quot; inflates to more than 8388608 bytes/);

  const bo = await createAccount(db, { email: "bo@example.com" });
  await createWiki(db, { id: "bo-notes", ownerAccountId: bo.id });
  const { token } = await createToken(db, { accountId: bo.id, kind: "account", name: "t" });
  const rest = await testApp(db).app.request("/api/v1/spaces/bo-notes/import", {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/zip" },
    body: bomb,
  });
  const problem = await rest.json();
  assert.equal(rest.status, 400);
  assert.match(problem.detail, /^Entry "bomb0\.md" inflates to more than 8388608 bytes/);
});

Deno.test("a page of 5,000 links to one page stores one link row, resolved both ways", async () => {
  await using db = await freshDb();
  const deps = testDeps(db);
  await createWiki(db, { id: "kb" });
  const by = { source: "test" };
  const markdown = "# Many\n\n" + "[[Mi]] ".repeat(MAX_LINKS);
  await writePage(deps, { wikiId: "kb", path: "Many", markdown }, by);
  const links = () =>
    db<{ position: number; target_key: string; to_path: string | null }>`
      SELECT l.position, l.target_key, p.path AS to_path
      FROM links l LEFT JOIN pages p ON p.id = l.to_page_id ORDER BY l.position`;
  assert.deepEqual(await links(), [{ position: 0, target_key: "mi", to_path: null }]);
  await writePage(deps, { wikiId: "kb", path: "Mi", markdown: "# Mi" }, by);
  assert.deepEqual(await links(), [{ position: 0, target_key: "mi", to_path: "Mi" }]);
  const content = await getPageContent(deps, "kb", { page: "Many" });
  assert.deepEqual(content.links, [{ page: "Mi", title: "Mi", exists: true }]);

  // A rename rewrites every one of the 5,000 links, not just the row stored.
  await renamePage(deps, { wikiId: "kb", path: "Mi", newPath: "Guides/Mi" }, by);
  const [many] = await db<{ markdown: string }>`SELECT markdown FROM pages WHERE path = 'Many'`;
  assert.equal(many!.markdown, "# Many\n\n" + "[[Guides/Mi]] ".repeat(MAX_LINKS));
  assert.deepEqual(await links(), [{ position: 0, target_key: "guides/mi", to_path: "Guides/Mi" }]);
});

Deno.test("a page with more links than the cap is refused, repeats counted, naming the cap", async () => {
  await using db = await freshDb();
  const deps = testDeps(db);
  await createWiki(db, { id: "kb" });
  const links = (n: number) => Array.from({ length: n }, (_, i) => `[[P${i}]]`).join(" ");
  await writePage(deps, { wikiId: "kb", path: "Fits", markdown: links(MAX_LINKS) }, {
    source: "test",
  });
  // 100,000 copies of one link: one distinct target, but each copy costs its render.
  const repeated = "[a](q.md) ".repeat(100_000);
  assert.ok(repeated.length >= 1_000_000);
  for (
    const [path, markdown, count] of [["Over", links(MAX_LINKS + 1), 5001], [
      "Repeats",
      repeated,
      100_000,
    ]] as const
  ) {
    await assert.rejects(
      writePage(deps, { wikiId: "kb", path, markdown }, { source: "test" }),
      (error: AppError) => {
        assert.equal(error.code, "payload_too_large");
        assert.equal(
          error.detail,
          `Page "${path}" has ${count} links: at most 5000 per page (a repeated link counts each time)`,
        );
        return true;
      },
    );
  }
  const [row] = await db<{ n: number }>`SELECT count(*)::int AS n FROM links`;
  assert.equal(row!.n, MAX_LINKS);
});

Deno.test("a page stored over the links cap is shown with its links as text, not looked up", async () => {
  await using db = await freshDb();
  await createWiki(db, { id: "kb" });
  const markdown = "# Old\n\n" + "[a](q.md) ".repeat(100_000) + "\n\n[[Kept]]";
  let statements = 0;
  const counting = Object.assign(
    (...args: Parameters<typeof db>) => {
      statements++;
      return db(...args);
    },
    db,
  ) as typeof db;
  const html = await renderPage(counting, {
    wikiId: "kb",
    path: "Old",
    markdown,
    canCreate: false,
  });
  assert.equal(statements, 0, "no lookup of 100,000 link targets");
  assert.match(html, /This page holds more than 5000 links/);
  assert.doesNotMatch(html, /<a /);
  assert.match(html, /\[a\]\(q\.md\)/);
});

/** A request body that records whether anything read it. */
function watchedBody() {
  const watch = { read: false };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      watch.read = true;
      controller.enqueue(new Uint8Array(64 * 1024));
    },
  }, { highWaterMark: 0 });
  return { watch, body };
}

Deno.test("signed-out and cross-site posts are refused before their body is read", async () => {
  await using db = await freshDb();
  const { app } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "kb", visibility: "public", ownerAccountId: ana.id });
  const post = async (path: string, headers: Record<string, string>) => {
    const { watch, body } = watchedBody();
    const res = await app.request(path, {
      method: "POST",
      body,
      duplex: "half",
      headers: { "content-type": "multipart/form-data; boundary=x", ...headers },
    } as RequestInit);
    return { status: res.status, text: await res.text(), read: watch.read };
  };

  // Anonymous, no cookie at all: today's 95 MB post to the import form.
  const anonymous = await post("/w/kb/-/import", {});
  // A member's form posted without a session: "signed out, sign in", still before the body.
  assert.deepEqual([anonymous.status, anonymous.read], [401, false]);
  assert.match(anonymous.text, /You are signed out/);

  // Signed out but holding a CSRF cookie (anyone can get one from the sign-in page).
  const signedOut = browser(app);
  await signedOut.token("/signin");
  const cookie = [...signedOut.jar].map(([n, v]) => `${n}=${v}`).join("; ");
  assert.match(cookie, /wiki_csrf=/);
  for (const path of ["/w/kb/-/import", "/w/kb/-/preview", "/w/kb/-/new"]) {
    const refused = await post(path, { cookie });
    assert.deepEqual([path, refused.status, refused.read], [path, 401, false]);
  }

  // Signed in, but the post comes from another site.
  const session = [...ana.jar].map(([n, v]) => `${n}=${v}`).join("; ");
  const crossSite = await post("/w/kb/-/import", {
    cookie: session,
    "sec-fetch-site": "cross-site",
  });
  assert.deepEqual([crossSite.status, crossSite.read], [403, false]);

  // Signed in, same site, a declared length over the import limit.
  const tooBig = await post("/w/kb/-/import", {
    cookie: session,
    "content-length": String(MAX_UPLOAD_BYTES + 1),
  });
  assert.deepEqual([tooBig.status, tooBig.read], [413, false]);
});
