import assert from "node:assert/strict";
import type { Answer } from "../src/ask/ask_schema.ts";
import type { Deps } from "../src/deps.ts";
import { writePage } from "../src/pages/write_page.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, testApp } from "./helpers.ts";
import { callOk, mcpClient } from "./mcp_helpers.ts";

/**
 * Writes `pages` (path → markdown) to a fresh public wiki and asks it each question over REST,
 * and again through the MCP SDK client's `ask` on `/mcp/w/handbook/`: both give the same verdict
 * and notes.
 */
export async function askHandbook(
  pages: Record<string, string>,
  questions: string[],
): Promise<Answer[]> {
  await using db = await freshDb();
  const { app, deps } = testApp(db, { RATE_LIMIT_ANON_PER_MINUTE: "100000" });
  await createWiki(db, { id: "handbook", visibility: "public" });
  for (const [path, markdown] of Object.entries(pages)) {
    await writePage(deps as Deps, { wikiId: "handbook", path, markdown }, { source: "test" });
  }
  const answers: Answer[] = [];
  const client = await mcpClient(app, "/mcp/w/handbook/");
  for (const question of questions) {
    const res = await app.request("/api/v1/public/wikis/handbook/ask", {
      method: "POST",
      body: JSON.stringify({ question }),
      headers: { "Content-Type": "application/json" },
    });
    assert.equal(res.status, 200);
    const answer: Answer = await res.json();
    const tool = await callOk<Answer>(client, "ask", { question });
    assert.deepEqual(
      { coverage: tool.coverage, frontier: tool.frontier },
      { coverage: answer.coverage, frontier: answer.frontier },
    );
    answers.push(answer);
  }
  await client.close();
  return answers;
}
