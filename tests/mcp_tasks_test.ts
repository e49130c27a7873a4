import assert from "node:assert/strict";
import { createAccount } from "../src/accounts/accounts.ts";
import { createToken } from "../src/auth/tokens.ts";
import type { Db } from "../src/db/db.ts";
import { writePage } from "../src/pages/write_page.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, testApp, testDeps } from "./helpers.ts";
import { startFakeOpenAi } from "./fake_openai.ts";
import { mcpClient } from "./mcp_helpers.ts";

type App = ReturnType<typeof testApp>["app"];
type Body = { result?: Record<string, unknown>; error?: { code: number; data?: unknown } };

const TASKS = "io.modelcontextprotocol/tasks";

/** A public wiki with a page, a private space, and two account tokens of different people. */
async function world(db: Db) {
  const deps = testDeps(db);
  await createWiki(db, { id: "garden", title: "Garden", visibility: "public" });
  const by = { source: "test" };
  await writePage(deps, {
    wikiId: "garden",
    path: "Compost",
    markdown: "# Compost\nCompost turns kitchen scraps into soil in about three months.",
  }, by);
  const ana = await createAccount(db, { email: "ana@example.com" });
  const bo = await createAccount(db, { email: "bo@example.com" });
  await createWiki(db, { id: "ana-notes", visibility: "private", ownerAccountId: ana.id });
  await writePage(deps, {
    wikiId: "ana-notes",
    path: "Plan",
    markdown: "# Plan\nThe launch is on the ninth of March.",
  }, by);
  const token = async (accountId: string) =>
    (await createToken(db, { accountId, kind: "account", name: "laptop" })).token;
  return { ana: await token(ana.id), bo: await token(bo.id) };
}

/** One JSON-RPC request, as a 2025-11-25 client sends it (no envelope). */
async function rpc2025(
  app: App,
  path: string,
  method: string,
  params: Record<string, unknown>,
  bearer?: string,
): Promise<Body> {
  const res = await app.request(path, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": "2025-11-25",
      ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return await res.json();
}

/** One 2026-07-28 request: the `_meta` envelope, with or without the Tasks extension. */
async function rpc2026(
  app: App,
  path: string,
  method: string,
  params: Record<string, unknown>,
  options: { tasks?: boolean; name?: string } = {},
): Promise<{ status: number; body: Body }> {
  const res = await app.request(path, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": method,
      ...(options.name ? { "Mcp-Name": options.name } : {}),
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 2,
      method,
      params: {
        ...params,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": options.tasks
            ? { extensions: { [TASKS]: {} } }
            : {},
          "io.modelcontextprotocol/clientInfo": { name: "tasks-test", version: "1" },
        },
      },
    }),
  });
  return { status: res.status, body: await res.json() };
}

/** Polls until the task has ended; returns the last answer. */
async function untilEnded(poll: () => Promise<Record<string, unknown>>) {
  for (let i = 0; i < 100; i++) {
    const task = await poll();
    if (task.status !== "working") return task;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the task never ended");
}

Deno.test("MCP 2025-11-25 tasks: ask runs as a task, polled, fetched, listed; others' tasks stay hidden", async () => {
  await using db = await freshDb();
  const { ana, bo } = await world(db);
  const { app } = testApp(db);
  const init = await rpc2025(app, "/mcp/", "initialize", {
    protocolVersion: "2025-11-25",
    capabilities: { tasks: {} },
    clientInfo: { name: "t", version: "1" },
  }, ana);
  assert.deepEqual((init.result!.capabilities as Record<string, unknown>).tasks, {
    list: {},
    cancel: {},
    requests: { tools: { call: {} } },
  });
  const tools = (await rpc2025(app, "/mcp/", "tools/list", {}, ana)).result!.tools as {
    name: string;
    execution?: unknown;
  }[];
  assert.deepEqual(tools.find((t) => t.name === "ask")!.execution, { taskSupport: "optional" });

  const question = { space: "ana-notes", question: "When is the launch?" };
  const created = await rpc2025(app, "/mcp/", "tools/call", {
    name: "ask",
    arguments: question,
    task: { ttl: 60_000 },
  }, ana);
  const task = created.result!.task as Record<string, unknown>;
  assert.equal(task.status, "working");
  assert.equal(task.ttl, 60_000);
  assert.equal(typeof task.pollInterval, "number");
  const taskId = task.taskId as string;

  const ended = await untilEnded(async () =>
    (await rpc2025(app, "/mcp/", "tasks/get", { taskId }, ana)).result!
  );
  assert.equal(ended.status, "completed");
  const fetched = (await rpc2025(app, "/mcp/", "tasks/result", { taskId }, ana)).result!;
  const plain =
    (await rpc2025(app, "/mcp/", "tools/call", { name: "ask", arguments: question }, ana))
      .result!;
  assert.deepEqual(fetched.content, plain.content);
  assert.deepEqual(fetched.structuredContent, plain.structuredContent);
  assert.deepEqual(
    (fetched._meta as Record<string, unknown>)["io.modelcontextprotocol/related-task"],
    {
      taskId,
    },
  );
  const listed = (await rpc2025(app, "/mcp/", "tasks/list", {}, ana)).result!.tasks as {
    taskId: string;
  }[];
  assert.deepEqual(listed.map((t) => t.taskId), [taskId]);
  // An ended task cannot be cancelled; another person's token does not see it at all.
  assert.equal((await rpc2025(app, "/mcp/", "tasks/cancel", { taskId }, ana)).error!.code, -32602);
  assert.equal((await rpc2025(app, "/mcp/", "tasks/get", { taskId }, bo)).error!.code, -32602);
  assert.deepEqual((await rpc2025(app, "/mcp/", "tasks/list", {}, bo)).result!.tasks, []);
  // Without a `task` param, ask answers at once, as before.
  assert.equal(plain.task, undefined);
});

Deno.test("MCP 2026-07-28 tasks: the extension is declared, ask makes a task only when the client declares it", async () => {
  await using db = await freshDb();
  await world(db);
  const { app } = testApp(db);
  for (const path of ["/mcp/hub/", "/mcp/w/garden/"]) {
    const discovered = await rpc2026(app, path, "server/discover", {});
    const capabilities = discovered.body.result!.capabilities as Record<string, unknown>;
    assert.deepEqual((capabilities.extensions as Record<string, unknown>)[TASKS], {}, path);
    assert.equal(capabilities.tasks, undefined, path);

    const args = {
      question: "How long does compost take?",
      ...(path.includes("hub") ? { wiki: "garden" } : {}),
    };
    const plain = await rpc2026(app, path, "tools/call", { name: "ask", arguments: args }, {
      name: "ask",
    });
    assert.equal(plain.body.result!.resultType, "complete");
    assert.ok(Array.isArray(plain.body.result!.content));

    const created = await rpc2026(app, path, "tools/call", { name: "ask", arguments: args }, {
      tasks: true,
      name: "ask",
    });
    const task = created.body.result!;
    assert.equal(task.resultType, "task", path);
    assert.equal(task.status, "working");
    assert.equal(task.ttlMs, 3_600_000);
    assert.equal(task.result, undefined);
    const taskId = task.taskId as string;
    const ended = await untilEnded(async () =>
      (await rpc2026(app, path, "tasks/get", { taskId }, { tasks: true, name: taskId })).body
        .result!
    );
    assert.equal(ended.status, "completed");
    assert.equal(ended.resultType, "complete");
    const result = ended.result as Record<string, unknown>;
    assert.deepEqual(result.structuredContent, plain.body.result!.structuredContent);
    assert.deepEqual(result.content, plain.body.result!.content);

    // Without the extension the task methods are refused as the extension says: -32021, 400.
    const refused = await rpc2026(app, path, "tasks/get", { taskId }, { name: taskId });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error!.code, -32021);
    assert.deepEqual(refused.body.error!.data, {
      requiredCapabilities: { extensions: { [TASKS]: {} } },
    });
    // An unknown task is -32602; a Mcp-Name that is not the task's id is -32020.
    const unknown = await rpc2026(app, path, "tasks/get", { taskId: "nope" }, { tasks: true });
    assert.equal(unknown.body.error!.code, -32602);
    const mismatch = await rpc2026(app, path, "tasks/get", { taskId }, {
      tasks: true,
      name: "other",
    });
    assert.equal(mismatch.status, 400);
    assert.equal(mismatch.body.error!.code, -32020);
    // tasks/result and tasks/list are not part of the 2026 extension.
    const removed = await rpc2026(app, path, "tasks/list", {}, { tasks: true });
    assert.equal(removed.body.error!.code, -32601);
    // Cancelling an ended task is acknowledged and changes nothing.
    const cancel = await rpc2026(app, path, "tasks/cancel", { taskId }, {
      tasks: true,
      name: taskId,
    });
    assert.deepEqual(Object.keys(cancel.body.result!).sort(), ["_meta", "resultType"]);
    const after = await rpc2026(app, path, "tasks/get", { taskId }, { tasks: true });
    assert.equal(after.body.result!.status, "completed");
  }
});

Deno.test("MCP tasks: a working task cancelled stays cancelled when its answer comes", async () => {
  await using db = await freshDb();
  await world(db);
  // An LLM that takes a second and a half to write: the cancel comes in while it writes.
  const started = startFakeOpenAi();
  await using fake = Object.assign(started, { [Symbol.asyncDispose]: () => started.close() });
  fake.delay(1500);
  const { app, deps } = testApp(db, { LLM_MODEL: "fake-chat", LLM_BASE_URL: fake.url });
  const created = await rpc2026(app, "/mcp/w/garden/", "tools/call", {
    name: "ask",
    arguments: { question: "How long does compost take?" },
  }, { tasks: true });
  const taskId = created.body.result!.taskId as string;
  const cancel = await rpc2026(app, "/mcp/w/garden/", "tasks/cancel", { taskId }, { tasks: true });
  assert.equal(cancel.body.result!.resultType, "complete");
  const got = await untilEnded(async () =>
    (await rpc2026(app, "/mcp/w/garden/", "tasks/get", { taskId }, { tasks: true })).body.result!
  );
  assert.equal(got.status, "cancelled");
  // The answer comes, and is dropped.
  const dropped = () => deps.logLines.some((l) => l.includes("task ended after it was cancelled"));
  for (let i = 0; i < 200 && !dropped(); i++) await new Promise((r) => setTimeout(r, 50));
  const later = await rpc2026(app, "/mcp/w/garden/", "tasks/get", { taskId }, { tasks: true });
  assert.equal(later.body.result!.status, "cancelled");
  assert.equal(later.body.result!.result, undefined);
  assert.equal(fake.chats.length, 1);
  assert.ok(dropped());
});

Deno.test("MCP: the SDK client without the extensions gets ask's text and structuredContent as before", async () => {
  await using db = await freshDb();
  await world(db);
  const { app } = testApp(db);
  const client = await mcpClient(app, "/mcp/w/garden/");
  const result = await client.callTool({
    name: "ask",
    arguments: { question: "What do kitchen scraps turn into?" },
  });
  const out = result.structuredContent as { answer: string; citations: unknown[] };
  assert.match(out.answer, /soil/);
  assert.equal(out.citations.length, 1);
  assert.match((result.content as { text: string }[])[0]!.text, /Sources:\n\[1\] Compost/);
  assert.equal((result as Record<string, unknown>).task, undefined);
  await client.close();
});
