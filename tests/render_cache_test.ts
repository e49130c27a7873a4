import assert from "node:assert/strict";
import { createWiki } from "../src/wikis/wikis.ts";
import { writePage } from "../src/pages/write_page.ts";
import { runJob } from "../src/spaces/render_job.ts";
import { largeRenders } from "../src/spaces/render_page.ts";
import { renderThreads } from "../src/spaces/render_threads.ts";
import { freshDb } from "./helpers.ts";
import { person, spaceApp } from "./space_helpers.ts";

// Issue 26.3: a large page is rendered once per content and context, and its kept HTML never
// shows a link other than the live one (docs/security.md, "Limits").

/** A 1 MB page at the links cap: 4,999 links to `q.md`, then prose. */
const AT_CAP = "# Cap\n\n" + "[a](q.md) ".repeat(4_999) + "\n\n" +
  "Plain words of text. ".repeat(45_000);

Deno.test("a large page is rendered once: the views after the first are served from its kept HTML", async () => {
  await using db = await freshDb();
  const { app, deps } = spaceApp(db);
  await createWiki(db, { id: "kb", visibility: "public" });
  const by = { source: "test" };
  await writePage(deps, { wikiId: "kb", path: "Cap", markdown: AT_CAP }, by);
  const view = async () => {
    const res = await app.request("/w/kb/Cap");
    const body = await res.text();
    assert.equal(res.status, 200);
    assert.ok(body.length > 1_500_000, "the page is rendered whole");
  };
  const before = largeRenders.count;
  await view();
  assert.equal(largeRenders.count, before + 1, "the first view renders");
  for (let i = 0; i < 3; i++) await view();
  assert.equal(largeRenders.count, before + 1, "three more views render nothing");
});

Deno.test("a large page's first view is scanned and rendered in the render worker, not the event loop, to the one rendering's HTML", async () => {
  await using db = await freshDb();
  const { app, deps } = spaceApp(db);
  await createWiki(db, { id: "kb", visibility: "public" });
  await writePage(deps, { wikiId: "kb", path: "Old", markdown: "# Old\n" }, { source: "test" });
  // 1 MB of 100,000 copies of one link, stored as it could be before the links cap.
  const repeated = "# Old\n\n" + "[a](q.md) ".repeat(100_000);
  await db`UPDATE pages SET markdown = ${repeated} WHERE wiki_id = 'kb' AND path = 'Old'`;
  const before = { ...renderThreads };
  const res = await app.request("/w/kb/Old");
  const body = await res.text();
  assert.equal(res.status, 200);
  assert.equal(
    renderThreads.worker - before.worker,
    2,
    "its link scan and its render ran in the worker",
  );
  assert.equal(renderThreads.inThread, before.inThread, "nothing of it ran in the server's thread");
  const page = { wikiId: "kb", path: "Old", markdown: repeated, canCreate: false, title: "Old" };
  const html = runJob({ op: "render", page, links: false, targets: new Map() });
  assert.ok(html.length > 1_000_000 && body.includes(html), "the worker's HTML is runJob's");
});

Deno.test("a large page's kept HTML follows its links' targets, its text and who reads it", async () => {
  await using db = await freshDb();
  const { app, deps } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "kb", visibility: "public", ownerAccountId: ana.id });
  const by = { source: "test" };
  const big = (extra: string) =>
    "# Big\n\nSee [[Guide]]. " + extra + "\n\n" +
    "Plain words of text. ".repeat(3_000);
  await writePage(deps, { wikiId: "kb", path: "Big", markdown: big("") }, by);
  const read = async (who: { get(path: string): Promise<Response> } | null = null) => {
    const res = who ? await who.get("/w/kb/Big") : await app.request("/w/kb/Big");
    assert.equal(res.status, 200);
    return await res.text();
  };
  const missing = /<a href="\/w\/kb\/Guide" class="missing"/;
  assert.match(await read(), missing);
  // A member may create the page: the same content, another context, another entry.
  assert.match(await read(ana), /<a href="\/w\/kb\/-\/new\?path=Guide" class="missing"/);
  assert.match(await read(), missing, "the reader's view is not the member's");
  // The target is written: the same page's link is no longer missing.
  await writePage(deps, { wikiId: "kb", path: "Guide", markdown: "# The guide\n" }, by);
  assert.match(await read(), /<a href="\/w\/kb\/Guide">The guide<\/a>/);
  // Retitled: a wikilink without a label shows the target's new title.
  await writePage(deps, { wikiId: "kb", path: "Guide", markdown: "# The manual\n" }, by);
  assert.match(await read(), /<a href="\/w\/kb\/Guide">The manual<\/a>/);
  // The page's own text changes: its new text is shown.
  await writePage(deps, { wikiId: "kb", path: "Big", markdown: big("Now edited.") }, by);
  assert.match(await read(), /Now edited\./);
});

Deno.test("where no worker can start (no Web Workers on the host), large pages render in the server's thread, to the same HTML", async () => {
  const module = (path: string) => JSON.stringify(new URL(path, import.meta.url).href);
  const code = `
    delete globalThis.Worker;
    const { keepRenderWorker, renderThreads, withRenderThread } = await import(${
    module("../src/spaces/render_threads.ts")
  });
    const { runJob } = await import(${module("../src/spaces/render_job.ts")});
    // 10,000 links, over the cap: shown as text.
    const markdown = "# Big\\n\\n" + "[a](q.md) ".repeat(10_000);
    const page = { wikiId: "kb", path: "Big", markdown, canCreate: false };
    const started = await keepRenderWorker();
    const html = await withRenderThread(async (run) => {
      const keys = await run({ op: "scan", markdown, path: "Big" });
      return await run({ op: "render", page, links: keys !== null, targets: new Map() });
    });
    const same = html === runJob({ op: "render", page, links: false, targets: new Map() });
    console.log(JSON.stringify({ started, same, ...renderThreads }));`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--lock=deno.dev.lock", code],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const result = JSON.parse(new TextDecoder().decode(out.stdout));
  // The ping at start, the scan and the render: all in the server's thread.
  assert.deepEqual(result, { started: false, same: true, worker: 0, inThread: 3 });
});
