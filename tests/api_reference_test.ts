import assert from "node:assert/strict";
import { Ajv2020 } from "npm:ajv@8.20.0/dist/2020.js";
import addFormats from "npm:ajv-formats@3.0.1";
import { freshDb, testApp } from "./helpers.ts";

type Json = Record<string, unknown>;
type Media = Record<string, { schema?: Json; example?: unknown }>;
type Operation = {
  operationId?: string;
  tags?: string[];
  requestBody?: { content?: Media };
  responses: Record<string, { content?: Media }>;
};
type Document = { paths: Record<string, Record<string, Operation>>; components?: Json };

async function served() {
  await using db = await freshDb();
  const { app } = testApp(db);
  const doc = await (await app.request("/api/v1/openapi.json")).json() as Document;
  const res = await app.request("/api/v1/docs");
  return { doc, res, html: await res.text(), app };
}

/** Each operation of the document with the anchor the reference gives it. */
function operations(doc: Document) {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({
      method,
      path,
      op,
      anchor: op.operationId ??
        `${method}${path.replace(/[{}]/g, "").replace(/[^A-Za-z0-9]+/g, "-")}`.replace(/-$/, ""),
    }))
  );
}

Deno.test("GET /api/v1/docs lists every operation under its tag, with request and response examples", async () => {
  const { doc, res, html } = await served();
  assert.equal(res.status, 200);
  const ops = operations(doc);
  assert.ok(ops.length >= 20, `${ops.length} operations`);
  // The page's tag sections, in order, each with the operations it holds.
  const sections = html.split(/<h2 class="tag" id="[^"]+">/).slice(1);
  const byTag = new Map(sections.map((s) => [s.slice(0, s.indexOf("</h2>")), s]));
  assert.deepEqual(
    [...byTag.keys()].sort(),
    [...new Set(ops.map((o) => o.op.tags?.[0] ?? "Other"))].sort(),
  );
  for (const { method, path, op, anchor } of ops) {
    const section = byTag.get(op.tags?.[0] ?? "Other")!;
    const start = section.indexOf(`<article class="op" id="${anchor}">`);
    assert.ok(start >= 0, `${method.toUpperCase()} ${path} is under "${op.tags?.[0]}"`);
    const article = section.slice(start, section.indexOf("</article>", start));
    assert.ok(article.includes(`<code>${path}</code>`), `${anchor} names its path`);
    assert.match(
      article,
      /Example request<\/h4><pre[^>]*><code>curl /,
      `${anchor} has a curl example`,
    );
    const json = Object.entries(op.responses).some(([s, r]) =>
      s.startsWith("2") && r.content?.["application/json"]
    );
    if (json) assert.match(article, /class="example"/, `${anchor} shows a response example`);
    if (op.requestBody?.content?.["application/json"]) {
      assert.match(article, /Request body/, `${anchor} describes its body`);
      assert.match(article, /<textarea name="body"/, `${anchor} can be tried with a body`);
    }
    assert.match(article, /<form class="try" hidden/, `${anchor} has a try-it form`);
  }
  // The listing's example is built from the schema, with realistic values.
  const spaces = byTag.get("Spaces")!;
  assert.match(spaces, /&quot;spaces&quot;: \[/);
  assert.match(html, /id="authentication"/);
  assert.match(html, /Authorization: Bearer \$WIKI_TOKEN/);
});

Deno.test("every JSON example in the OpenAPI document matches its schema", async () => {
  const { doc } = await served();
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema({ components: { schemas: (doc.components?.schemas ?? {}) as Json } }, "doc");
  let checked = 0;
  for (const { op, anchor } of operations(doc)) {
    const media = [
      ["request", op.requestBody?.content?.["application/json"]] as const,
      ...Object.entries(op.responses).map(([s, r]) =>
        [s, r.content?.["application/json"]] as const
      ),
    ];
    for (const [where, m] of media) {
      if (!m?.schema) continue;
      if (where === "request" || where.startsWith("2")) {
        assert.ok("example" in m, `${anchor} ${where} has an example`);
      }
      if (!("example" in m)) continue;
      const text = JSON.stringify(m.schema).replaceAll('"#/components/', '"doc#/components/');
      const validate = ajv.compile(JSON.parse(text));
      assert.ok(
        validate(m.example),
        `${anchor} ${where}: ${JSON.stringify(validate.errors)} in ${JSON.stringify(m.example)}`,
      );
      checked++;
    }
  }
  assert.ok(checked >= 25, `${checked} examples checked`);
});

Deno.test("GET /api/v1/docs allows no inline script and loads try-it from our own assets", async () => {
  const { res, html, app } = await served();
  const csp = res.headers.get("content-security-policy") ?? "";
  const scriptSrc = /script-src ([^;]+)/.exec(csp)?.[1];
  assert.equal(scriptSrc, "'self'");
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.equal(res.headers.get("x-frame-options"), "DENY");
  const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
  assert.equal(scripts.length, 1);
  assert.match(scripts[0]![1]!, /src="\/assets\/api_try\.js"/);
  assert.equal(scripts[0]![2], "");
  assert.doesNotMatch(html, /https?:\/\/(?!wiki\.test)[^"' ]+\.(js|css)\b/, "nothing from a CDN");
  const asset = await app.request("/assets/api_try.js");
  assert.equal(asset.status, 200);
  assert.match(asset.headers.get("content-type")!, /javascript/);
  assert.match(await asset.text(), /sessionStorage/);
});
