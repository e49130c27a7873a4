import assert from "node:assert/strict";
import { askWikis } from "../src/ask/ask.ts";
import type { Db } from "../src/db/db.ts";
import { writePage } from "../src/pages/write_page.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { startFakeOpenAi } from "./fake_openai.ts";
import { freshDb, testApp, testDeps } from "./helpers.ts";

const by = { source: "test" };

async function garden(db: Db, env: Record<string, string> = {}) {
  const deps = testDeps(db, env);
  await createWiki(db, { id: "garden", visibility: "public" });
  const write = (path: string, markdown: string) =>
    writePage(deps, { wikiId: "garden", path, markdown }, by);
  await write(
    "Compost",
    "# Compost\nCompost needs green and brown material. Turn the heap every two weeks. See [[Worm bins]].",
  );
  await write(
    "Watering",
    "# Watering\nWater tomatoes deeply twice a week. Morning watering reduces mildew.",
  );
  await write("Soil", "# Soil\nLoam holds water and air. Clay soil drains slowly.");
  return deps;
}

Deno.test("an extractive answer cites verbatim sentences of the retrieved pages", async () => {
  await using db = await freshDb();
  const deps = await garden(db);
  const answer = await askWikis(deps, ["garden"], {
    question: "How often should I turn the compost heap?",
  });
  assert.equal(answer.mode, "extractive");
  assert.match(answer.answer, /Turn the heap every two weeks\. \[\d\]/);
  assert.ok(answer.citations.length >= 1);
  const pages = await db<{ path: string; markdown: string }>`SELECT path, markdown FROM pages`;
  for (const c of answer.citations) {
    assert.ok(
      pages.find((p) => p.path === c.page)!.markdown.includes(c.quote),
      `quote of ${c.page} is verbatim`,
    );
    assert.match(c.url, /^http:\/\/wiki\.test\/w\/garden\//);
    assert.equal(c.revision, 1);
  }
  assert.equal(answer.citations[0]!.page, "Compost");
  assert.notEqual(answer.coverage, "unsupported");
  const worms = await askWikis(deps, ["garden"], { question: "Do worm bins help the compost?" });
  assert.ok(
    worms.frontier.some((f) =>
      f.kind === "missing_page" && /"Worm bins" is linked from "Compost"/.test(f.note)
    ),
  );
});

Deno.test("a question the wiki does not cover says so instead of answering from a poor match", async () => {
  await using db = await freshDb();
  const deps = await garden(db);
  const answer = await askWikis(deps, ["garden"], {
    question: "What is the airspeed velocity of an unladen swallow?",
  });
  assert.equal(answer.coverage, "unsupported");
  assert.deepEqual(answer.citations, []);
  assert.match(answer.answer, /does not answer|nothing on this/);
  assert.ok(answer.frontier.some((f) => f.kind === "weak_match"));
  assert.ok(answer.frontier.some((f) => f.kind === "uncovered" && /swallow/.test(f.note)));
});

Deno.test("an LLM answer keeps verified citations and drops a fabricated quote and an unretrieved passage", async () => {
  const fake = startFakeOpenAi();
  try {
    await using db = await freshDb();
    const deps = await garden(db, { LLM_MODEL: "fake-chat", LLM_BASE_URL: fake.url });
    fake.chat(({ messages }) => {
      const prompt = messages[1]!.content;
      const n = /\[(\d+)\] \(page "Compost"/.exec(prompt)![1];
      return JSON.stringify({
        answer: `Turn it every two weeks [${n}]. Add lime monthly [${n}]. Ask a neighbour [99].`,
        citations: [
          { passage: Number(n), quote: "Turn the heap   every two weeks." },
          { passage: Number(n), quote: "Add lime to the heap every month." },
          { passage: 99, quote: "Anything" },
        ],
        frontier: [{ kind: "uncovered", note: "Nothing on lime" }],
      });
    });
    const answer = await askWikis(deps, ["garden"], {
      question: "How often do I turn the compost heap?",
    });
    assert.equal(answer.mode, "llm");
    assert.deepEqual(answer.citations.map((c) => [c.n, c.page, c.quote]), [[
      1,
      "Compost",
      "Turn the heap every two weeks.",
    ]]);
    assert.equal(
      answer.answer,
      "Turn it every two weeks [1]. Add lime monthly [1]. Ask a neighbour.",
    );
    const dropped = answer.frontier.filter((f) => f.kind === "citation_dropped");
    assert.equal(dropped.length, 2);
    assert.ok(dropped.some((f) => /not retrieved/.test(f.note)));
    assert.ok(answer.frontier.some((f) => f.kind === "uncovered" && f.note === "Nothing on lime"));
    assert.equal(fake.chats[0]!.model, "fake-chat");
  } finally {
    await fake.close();
  }
});

Deno.test("malformed model output, a model error and a timeout fall back to the extractive answer", async () => {
  const fake = startFakeOpenAi();
  try {
    await using db = await freshDb();
    const env = {
      LLM_MODEL: "fake-chat",
      LLM_BASE_URL: fake.url,
      LLM_TIMEOUT_MS: "300",
      LLM_MAX_RETRIES: "0",
    };
    const deps = await garden(db, env);
    const question = { question: "When should tomatoes be watered?" };
    fake.chat(() => "Sure! Tomatoes like water.");
    const malformed = await askWikis(deps, ["garden"], question);
    assert.equal(malformed.mode, "extractive");
    assert.match(malformed.frontier.find((f) => f.kind === "llm_fallback")!.note, /not the JSON/);
    assert.match(malformed.answer, /Water tomatoes deeply/);
    fake.failNext(1, 500);
    const failed = await askWikis(deps, ["garden"], question);
    assert.equal(failed.mode, "extractive");
    assert.ok(failed.frontier.some((f) => f.kind === "llm_fallback"));
    fake.delay(1000);
    const slow = await askWikis(deps, ["garden"], question);
    assert.match(slow.frontier.find((f) => f.kind === "llm_fallback")!.note, /timed out/);
    assert.ok(slow.citations.length > 0);
    fake.delay(0);
  } finally {
    await fake.close();
  }
});

Deno.test("frontier notes name a page by its title, as the reader sees it, and keep its path in pages", async () => {
  await using db = await freshDb();
  const { app, deps } = testApp(db);
  await createWiki(db, { id: "ops", visibility: "public" });
  await writePage(deps, {
    wikiId: "ops",
    path: "runbooks/node-down",
    markdown:
      "# Node down\n\nWhen a node is down, drain it and restart the agent with `systemctl restart agent`.",
  }, by);
  const res = await app.request("/api/v1/public/wikis/ops/ask", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ question: "How do I restart the agent when a node is down?" }),
  });
  assert.equal(res.status, 200);
  const answer = await res.json();
  assert.equal(answer.citations[0].page, "runbooks/node-down");
  const single = answer.frontier.find((f: { kind: string }) => f.kind === "single_source");
  assert.equal(single.note, 'The answer rests on one page: "Node down"');
  assert.deepEqual(single.pages, ["runbooks/node-down"]);
});
