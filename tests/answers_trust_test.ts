import assert from "node:assert/strict";
import { askWikis } from "../src/ask/ask.ts";
import type { Answer } from "../src/ask/ask_schema.ts";
import type { Db } from "../src/db/db.ts";
import { writePage } from "../src/pages/write_page.ts";
import { searchWikis } from "../src/search/search_wikis.ts";
import { markSnippet } from "../src/search/snippet.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { startFakeOpenAi } from "./fake_openai.ts";
import { freshDb, testDeps } from "./helpers.ts";

const by = { source: "test" };

async function space(db: Db, pages: Record<string, string>, id = "ops") {
  const deps = testDeps(db);
  await createWiki(db, { id, visibility: "public" });
  for (const [path, markdown] of Object.entries(pages)) {
    await writePage(deps, { wikiId: id, path, markdown }, by);
  }
  return deps;
}

/** Every citation's quote is its page's markdown between its offsets, byte for byte. */
async function assertVerbatim(db: Db, answer: Answer) {
  const pages = new Map(
    (await db<{ path: string; markdown: string }>`SELECT path, markdown FROM pages`).map((
      p,
    ) => [p.path, p.markdown]),
  );
  for (const c of answer.citations) {
    assert.equal(pages.get(c.page)!.slice(c.start, c.end), c.quote, `quote of ${c.page}`);
  }
}

/** The user guide's pages (`docs/guide`), by path. */
async function readGuide(): Promise<Record<string, string>> {
  const guide: Record<string, string> = {};
  for await (const entry of Deno.readDir("docs/guide")) {
    if (entry.name.endsWith(".md") && entry.name !== "SUMMARY.md") {
      guide[entry.name.slice(0, -3)] = await Deno.readTextFile(`docs/guide/${entry.name}`);
    }
  }
  return guide;
}

/**
 * An answer is clean markdown: no bold marks, wikilinks, table pipes or HTML outside its fenced
 * code, and a code block is never glued into a line.
 */
function assertPlain(answer: Answer) {
  const prose = answer.answer.replace(/(^|\n)```[^\n]*\n[\s\S]*?\n```/g, "$1");
  assert.doesNotMatch(prose, /\*\*|\[\[|(^|\n)\s*\|.*\||<\/?(a|code|span|div)\b/, answer.answer);
  assert.doesNotMatch(prose, /```/, answer.answer);
}

const OPS = {
  Falcon: "# Falcon\n\nFalcon is the deploy tool of the platform team. " +
    "Rollbacks are done with `falcon rollback --to <sha>`. Deploys need a green build.",
  Gateway: "# Gateway\n\nThe API gateway terminates TLS for every service. " +
    "The gateway listens on port 8443 for HTTPS traffic.",
  "Ops notes": "# Ops notes\n\nAfter the migration the gateway listens on port 7443 for HTTPS " +
    "traffic. The on-call rota changes every Monday.",
  Billing: "# Billing\n\nInvoices are sent on the first day of each month.",
  Runbook: "# Runbook\n\n## Node down\n\n- Page the on-call engineer.\n" +
    "- Drain the node with `kubectl drain <node>`.\n- Open an incident in the tracker.\n",
};

Deno.test("the Falcon rollback question is answered as supported, with the command intact", async () => {
  await using db = await freshDb();
  const deps = await space(db, OPS);
  const answer = await askWikis(deps, ["ops"], { question: "How do I roll back Falcon?" });
  assert.equal(answer.coverage, "supported", JSON.stringify(answer));
  assert.equal(answer.citations[0]!.page, "Falcon");
  assert.match(answer.answer, /falcon rollback --to <sha>/);
  assert.match(answer.citations[0]!.quote, /`falcon rollback --to <sha>`/);
  assertPlain(answer);
  await assertVerbatim(db, answer);
});

Deno.test("two pages stating different ports for the gateway get a conflict note", async () => {
  await using db = await freshDb();
  const deps = await space(db, OPS);
  const answer = await askWikis(deps, ["ops"], {
    question: "Which port does the gateway listen on for HTTPS?",
  });
  const cited = answer.citations.map((c) => c.page);
  assert.ok(cited.includes("Gateway") && cited.includes("Ops notes"), cited.join());
  const conflict = answer.frontier.find((f) => f.kind === "conflict");
  assert.ok(conflict, JSON.stringify(answer.frontier));
  assert.match(conflict.note, /8443/);
  assert.match(conflict.note, /7443/);
  assert.deepEqual([...conflict.pages!].sort(), ["Gateway", "Ops notes"]);
  await assertVerbatim(db, answer);
});

Deno.test("a runbook step brings its whole list, never glued to the text around it", async () => {
  await using db = await freshDb();
  const deps = await space(db, OPS);
  const answer = await askWikis(deps, ["ops"], { question: "How do I drain a node that is down?" });
  assert.equal(answer.citations[0]!.page, "Runbook");
  assert.equal(
    answer.citations[0]!.quote,
    "- Page the on-call engineer.\n- Drain the node with `kubectl drain <node>`.\n" +
      "- Open an incident in the tracker.",
  );
  assert.match(
    answer.answer,
    /^- Page the on-call engineer\.\n- Drain the node with `kubectl drain <node>`\.\n- Open an incident in the tracker\.\n\[1\]/,
  );
  // The frontier notes agree with the citation: "node" is in the section's heading.
  assert.ok(!answer.frontier.some((f) => /mentions "node"/.test(f.note)), JSON.stringify(answer));
  assertPlain(answer);
  await assertVerbatim(db, answer);
});

Deno.test("guide questions answered from lists, tables and code quote the page verbatim with offsets", async () => {
  await using db = await freshDb();
  const deps = await space(db, await readGuide(), "docs");
  const questions: [string, RegExp][] = [
    ["Which endpoint serves one public wiki?", /^\|.*\|$/], // a table row
    ["How do I add a custom connector in Claude?", /^\d\. /], // a numbered step
    ["How do I start the service on PostgreSQL with DATABASE_URL?", /```sh\n/], // code
  ];
  for (const [question, shape] of questions) {
    const answer = await askWikis(deps, ["docs"], { question });
    assert.ok(answer.citations.length > 0, question);
    assert.ok(
      answer.citations.some((c) => shape.test(c.quote)),
      `${question}: ${answer.citations.map((c) => JSON.stringify(c.quote)).join("\n")}`,
    );
    for (const c of answer.citations) {
      // A quote is one block: never a list item glued to prose, or code glued to text.
      // …or a whole list, when a step of it answers.
      const items = c.quote.split("\n").filter((l) => /^\s*([-*+]|\d+\.)\s/.test(l));
      // (An item's indented continuation line is part of the item.)
      const lines = c.quote.split("\n").filter((l) =>
        l.trim() && !/^\s+(?![-*+]\s|\d+\.\s)\S/.test(l)
      )
        .length;
      assert.ok(items.length <= 1 || items.length === lines, `${question}: ${c.quote}`);
      if (c.quote.includes("```")) assert.match(c.quote, /^```[\s\S]*```$/, c.quote);
    }
    assertPlain(answer);
    await assertVerbatim(db, answer);
  }
});

Deno.test("a snippet keeps `<sha>` and placeholders, and never collides with markdown bold", async () => {
  await using db = await freshDb();
  const deps = await space(db, {
    ...OPS,
    Connect: "# Connect\n\n**Connect** your assistant to `/mcp/w/<id>/` and send " +
      "`Authorization: Bearer <token>` with every request.",
  });
  const found = await searchWikis(deps, ["ops"], { query: "rollback" });
  const falcon = found.results.find((r) => r.page === "Falcon")!;
  assert.match(falcon.snippet, /falcon rollback --to <sha>/);
  assert.ok(falcon.matches.length > 0);
  for (const m of falcon.matches) {
    assert.match(falcon.snippet.slice(m.start, m.end), /^rollbacks?$/i);
  }
  const connect = (await searchWikis(deps, ["ops"], { query: "connect assistant token" }))
    .results.find((r) => r.page === "Connect")!;
  assert.doesNotMatch(connect.snippet, /\*\*/);
  assert.match(connect.snippet, /\/mcp\/w\/<id>\//);
  assert.match(connect.snippet, /Authorization: Bearer <token>/);
  assert.deepEqual(
    connect.matches.map((m) => connect.snippet.slice(m.start, m.end)),
    ["Connect", "assistant", "token"],
  );
  assert.match(
    markSnippet({ text: connect.snippet, matches: connect.matches }),
    /^⟦Connect⟧ your ⟦assistant⟧/,
  );
});

Deno.test("a search for 7443 returns only the pages that contain it", async () => {
  await using db = await freshDb();
  const filler = Object.fromEntries(
    Array.from({ length: 10 }, (_, i) => [
      `Service ${i}`,
      `# Service ${i}\n\nService ${i} runs in the cluster and serves traffic on its own port.`,
    ]),
  );
  const deps = await space(db, { ...OPS, ...filler });
  const found = await searchWikis(deps, ["ops"], { query: "7443" });
  assert.deepEqual(found.results.map((r) => r.page), ["Ops notes"]);
  const answer = await askWikis(deps, ["ops"], { question: "What uses port 7443?" });
  assert.ok(answer.citations.every((c) => c.page === "Ops notes" || c.quote.includes("port")));
});

Deno.test("a page that only links to a section ranks below the section itself", async () => {
  await using db = await freshDb();
  const deps = await space(db, {
    Tokens: "# Tokens\n\nTokens let programs read a space.\n\n## Rate limits\n\n" +
      "Each token may make 600 requests a minute; past that the API answers 429.",
    Overview: "# Overview\n\nSee [[Tokens#Rate limits]].",
  });
  const found = await searchWikis(deps, ["ops"], { query: "rate limits" });
  assert.equal(found.results[0]!.page, "Tokens", JSON.stringify(found.results));
  assert.equal(found.results[0]!.section, "Tokens > Rate limits");
});

Deno.test("with a model, it is asked even on weak matches, and its checked 'not covered' stands", async () => {
  const fake = startFakeOpenAi();
  try {
    await using db = await freshDb();
    const deps = testDeps(db, { LLM_MODEL: "fake-chat", LLM_BASE_URL: fake.url });
    await createWiki(db, { id: "ops", visibility: "public" });
    for (const [path, markdown] of Object.entries(OPS)) {
      await writePage(deps, { wikiId: "ops", path, markdown }, by);
    }
    fake.chat(() =>
      JSON.stringify({ answer: "The passages do not say.", citations: [], covered: false })
    );
    const vendors = await askWikis(deps, ["ops"], {
      question: "Which vendors do we use for billing?",
    });
    assert.equal(fake.chats.length, 1, "the model saw a weak retrieval too");
    assert.equal(vendors.mode, "llm");
    assert.equal(vendors.coverage, "unsupported");
    // A "not covered" against strong evidence is not taken at its word.
    fake.chat(({ messages }) => {
      const n = /\[(\d+)\] \(page "Falcon"/.exec(messages[1]!.content)![1];
      return JSON.stringify({
        answer: `Use falcon rollback [${n}].`,
        citations: [{ passage: Number(n), quote: "Rollbacks are done with" }],
        covered: false,
      });
    });
    const falcon = await askWikis(deps, ["ops"], { question: "How do I roll back Falcon?" });
    assert.equal(falcon.coverage, "partial");
    assert.ok(
      falcon.frontier.some((f) => f.kind === "weak_match" && /check the cited/.test(f.note)),
    );
    await assertVerbatim(db, falcon);
  } finally {
    await fake.close();
  }
});

Deno.test("a code block answers a question about commands or configuration, not one about how to write a page", async () => {
  await using db = await freshDb();
  const deps = await space(db, {
    Links: "# Links\n\n## Sections\n\nTo link to a section of another page, write " +
      "[[Page#Section]]: the link opens that page at the section.",
    Tools: "# Tools\n\n## neighbors\n\nThe tool lists a page's links:\n\n```json\n" +
      '{\n  "page": "Tools",\n  "section": null,\n  "neighbors": [{ "page": "Home", ' +
      '"relation": "links_to", "section": null }],\n  "link": "another page"\n}\n```\n',
    Deploy: "# Deploy\n\n## Start\n\nStart the service with:\n\n```sh\n" +
      "DATABASE_URL=postgres://db/wiki deno task start\n```\n",
  });
  const howTo = await askWikis(deps, ["ops"], {
    question: "How do I link to a section of another page?",
  });
  assert.equal(howTo.citations[0]?.page, "Links", JSON.stringify(howTo.citations));
  assert.ok(howTo.citations.every((c) => !c.quote.includes("```")), howTo.answer);
  const command = await askWikis(deps, ["ops"], {
    question: "Which command starts the service with DATABASE_URL?",
  });
  // (The section is short: its announcement and its block are cited together.)
  assert.ok(command.citations.some((c) => c.quote.includes("```sh")), command.answer);
  assertPlain(howTo);
  await assertVerbatim(db, howTo);
});

Deno.test("a sentence counts the words of the section heading it stands under: the guide says how to link to a section", async () => {
  await using db = await freshDb();
  const deps = await space(db, await readGuide(), "docs");
  const answer = await askWikis(deps, ["docs"], {
    question: "How do I link to a section of another page?",
  });
  // "`[[Tokens#Rate limits]]` links to the section …" holds "link" and "section"; "page" is in
  // its heading, "Link pages with wikilinks".
  assert.equal(answer.citations[0]?.section, "Writing pages > Link pages with wikilinks");
  // The item comes with the sentence that leads its list ("Wikilinks name the page by its path:").
  assert.ok(
    answer.citations.slice(0, 2).some((c) =>
      /\[\[Tokens#Rate limits\]\]` links to the section/.test(c.quote)
    ),
    answer.answer,
  );
  await assertVerbatim(db, answer);
});
