import assert from "node:assert/strict";
import { Client } from "npm:@modelcontextprotocol/client@2.4.0";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { writePage } from "../src/pages/write_page.ts";
import { buildWikiServer } from "../src/mcp/servers.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, testApp, testDeps } from "./helpers.ts";
import { docsWithSetup, mcpClient, postToDocs, searchCallBody } from "./mcp_helpers.ts";

// What an MCP call costs beyond its tool's work (issue 33): the answer's size and the server
// built for it. Structural checks, not timings.

Deno.test("search's text carries what a model acts on once; the structured result the rest", async () => {
  await using db = await freshDb();
  const deps = testDeps(db);
  await createWiki(db, { id: "docs", title: "Docs", visibility: "public" });
  const pages: [string, string][] = [["Setup", "Run the installer with deno."], [
    "Tools",
    "Tools run.",
  ]];
  for (const [path, body] of pages) {
    await writePage(deps, { wikiId: "docs", path, markdown: `# ${path}\n${body}` }, {
      source: "test",
    });
  }
  const client = await mcpClient(testApp(db).app, "/mcp/w/docs/");
  try {
    const result = await client.callTool({ name: "search", arguments: { query: "installer" } });
    const content = result.content as { type: string; text: string }[];
    assert.equal(content.length, 1);
    const text = JSON.parse(content[0]!.text) as { results: Record<string, unknown>[] };
    const structured = result.structuredContent as { results: Record<string, unknown>[] };
    const hit = text.results[0]!;
    assert.deepEqual(Object.keys(hit), [
      "id",
      "wiki",
      "page",
      "title",
      "section",
      "snippet",
      "url",
    ]);
    assert.equal(hit.id, "docs/Setup");
    assert.match(String(hit.snippet), /⟦installer⟧/);
    // The rest is in the structured result only: offsets, score, revision, time.
    for (const key of ["matches", "score", "revision", "updated_at"]) {
      assert.ok(key in structured.results[0]!, key);
      assert.ok(!(key in hit), key);
    }
    assert.ok(content[0]!.text.length < JSON.stringify(structured).length * 0.8);
  } finally {
    await client.close();
  }
});

/** The tools a server built for `only` lists (over an in-memory transport). */
async function toolsOf(only: string | undefined): Promise<string[]> {
  await using db = await freshDb();
  await createWiki(db, { id: "docs", title: "Docs", visibility: "public" });
  const wiki = { id: "docs", title: "Docs", visibility: "public" } as Parameters<
    typeof buildWikiServer
  >[1];
  const server = buildWikiServer(testDeps(db), wiki, null, "test", undefined, only);
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "t", version: "1" });
  await client.connect(b);
  try {
    return (await client.listTools()).tools.map((t) => t.name);
  } finally {
    await client.close();
    await server.close();
  }
}

Deno.test("a server built for one tools/call holds that tool alone, or all of them for an unknown one", async () => {
  const all = await toolsOf(undefined);
  assert.ok(all.length >= 6 && all.includes("search") && all.includes("fetch"), String(all));
  assert.deepEqual(await toolsOf("search"), ["search"]);
  assert.deepEqual(await toolsOf("no_such_tool"), all);
});

Deno.test("over HTTP, an unknown tool is answered as before and a known one after it works", async () => {
  await using db = await freshDb();
  await createWiki(db, { id: "docs", title: "Docs", visibility: "public" });
  const client = await mcpClient(testApp(db).app, "/mcp/w/docs/");
  try {
    const refused = await client.callTool({ name: "no_such_tool", arguments: {} }).then(
      (r) => JSON.stringify(r.content),
      (e: Error) => e.message,
    );
    assert.match(refused, /no_such_tool/);
    const listed = await client.listTools();
    assert.ok(listed.tools.length >= 6);
    const found = await client.callTool({ name: "search", arguments: { query: "anything" } });
    assert.ok(!found.isError, JSON.stringify(found.content));
  } finally {
    await client.close();
  }
});

/** How many `Response`s were constructed while `work` ran (`new Response` through the global). */
async function responsesMade(work: () => Promise<void>): Promise<number> {
  const Original = globalThis.Response;
  let made = 0;
  globalThis.Response = class extends Original {
    constructor(...args: ConstructorParameters<typeof Response>) {
      super(...args);
      made++;
    }
  } as typeof Response;
  try {
    await work();
  } finally {
    globalThis.Response = Original;
  }
  return made;
}

Deno.test("an MCP call's answer is not copied into new responses to carry the CORS headers", async () => {
  await using db = await freshDb();
  const app = await docsWithSetup(db);
  const call = (origin?: string) => postToDocs(app, searchCallBody(), origin ? { origin } : {});
  await call();
  let response!: Response;
  // The route's answer is the response sent: nothing on the way out makes another.
  assert.equal(await responsesMade(async () => void (response = await call())), 0);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("access-control-allow-origin"), "*");
  assert.equal(response.headers.get("vary"), "Origin");
  assert.match(response.headers.get("access-control-expose-headers") ?? "", /RateLimit,/);
  const fromPage = await call("http://localhost:5173");
  assert.equal(fromPage.headers.get("access-control-allow-origin"), "http://localhost:5173");
  await fromPage.body?.cancel();
  await response.body?.cancel();
});

/** How many times `run` starts reading a stream part by part (`for await` over a body). */
async function streamsIterated(run: () => Promise<void>): Promise<number> {
  const proto = ReadableStream.prototype as unknown as Record<symbol, (...a: unknown[]) => unknown>;
  const original = proto[Symbol.asyncIterator]!;
  let count = 0;
  proto[Symbol.asyncIterator] = function (this: unknown, ...args: unknown[]) {
    count++;
    return original.apply(this, args);
  };
  try {
    await run();
  } finally {
    proto[Symbol.asyncIterator] = original;
  }
  return count;
}

Deno.test("an MCP request whose Content-Length is declared is read in one piece, not part by part", async () => {
  await using db = await freshDb();
  const app = await docsWithSetup(db);
  const body = new TextEncoder().encode(searchCallBody());
  const call = (headers: Record<string, string>) => postToDocs(app, body, headers);
  let declared!: Response;
  assert.equal(
    await streamsIterated(async () =>
      void (declared = await call({
        "content-length": String(body.byteLength),
      }))
    ),
    0,
  );
  assert.equal(declared.status, 200);
  assert.match(await declared.text(), /"docs\/Setup"/);
  // Without a length (a chunked body) it is read part by part, bounded as it comes.
  let chunked!: Response;
  assert.ok(await streamsIterated(async () => void (chunked = await call({}))) > 0);
  assert.equal(chunked.status, 200);
  assert.match(await chunked.text(), /"docs\/Setup"/);
});

/** How many times `run` asks a request for its `body` (the getter makes the body's stream). */
async function bodiesAsked(run: () => Promise<void>): Promise<number> {
  const proto = Request.prototype;
  const original = Object.getOwnPropertyDescriptor(proto, "body")!;
  let count = 0;
  Object.defineProperty(proto, "body", {
    ...original,
    get(this: Request) {
      count++;
      return original.get!.call(this);
    },
  });
  try {
    await run();
  } finally {
    Object.defineProperty(proto, "body", original);
  }
  return count;
}

Deno.test("an MCP request whose Content-Length is declared is read without making its body's stream", async () => {
  await using db = await freshDb();
  const app = await docsWithSetup(db);
  const body = new TextEncoder().encode(searchCallBody());
  let response!: Response;
  const asked = await bodiesAsked(async () =>
    void (response = await postToDocs(app, body, { "content-length": String(body.byteLength) }))
  );
  // Neither the head limits (MCP declares its own body limit) nor the route ask for it.
  assert.equal(asked, 0);
  assert.equal(response.status, 200);
  assert.match(await response.text(), /"docs\/Setup"/);
  // (Routes without a limit of their own keep the default: tests/hardening_test.ts.)
});

Deno.test("an MCP body larger than its bound is refused whether its length is declared, understated or not given", async () => {
  await using db = await freshDb();
  const { app } = testApp(db);
  const big = new Uint8Array(4 * 1024 * 1024 + 1).fill(0x20);
  for (const length of [String(big.byteLength), "10", undefined]) {
    const res = await app.request("/mcp/w/docs/", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        ...(length ? { "content-length": length } : {}),
      },
      body: big,
    });
    assert.equal(res.status, 413, String(length));
    assert.match(await res.text(), /Payload Too Large/);
  }
});
