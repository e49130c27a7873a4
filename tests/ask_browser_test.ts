import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "npm:@modelcontextprotocol/client@2.4.0";
import { createToken } from "../src/auth/tokens.ts";
import { screenshot } from "./chromium.ts";
import { CHROMIUM, createSpace, liveApp, signUp } from "./live_app.ts";
import { seedPages } from "./space_helpers.ts";

// Real headless Chromium against a real server on loopback: asking in the app (streamed, and
// without script), and the coverage gaps an assistant's unanswered question leaves.

/** The app on a loopback port over a fresh database, with Ana signed in and her handbook. */
async function liveHandbook() {
  const live = await liveApp();
  const { base, deps } = live;
  const page = await live.window({ width: 1280, height: 900 });
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  await signUp(page, base, "ana@example.com");
  await createSpace(page, base, "handbook", "Handbook");
  await seedPages(deps, "handbook", {
    "Home": "# Home\n\nWelcome to the handbook. Start with [[Guides/Setup]].\n",
    "Guides/Setup": "# Setup\n\nHow to set the service up.\n\n## Install\n\n" +
      "Download the release and unpack it.\n\n## Ports\n\n" +
      "Open port 8443 for the service and port 9090 for its metrics.\n\n## Verify\n\n" +
      "Open the health page.\n",
  });
  return {
    base,
    db: live.db,
    browser: live.browser,
    page,
    violations,
    [Symbol.asyncDispose]: () => live[Symbol.asyncDispose](),
  };
}

Deno.test({
  name: "asking in the app streams the answer in place, a citation leads to its section, " +
    "and without script the form returns the whole answer",
  ignore: !CHROMIUM,
  fn: async () => {
    await using live = await liveHandbook();
    const { base, page } = live;
    await page.goto(`${base}/w/handbook/-/ask`);
    // A mark on this document: it survives only if asking does not load another page.
    await page.evaluate("window.stayed = true");
    await page.getByLabel("Your question").fill("Which port do I open for the service?");
    await Promise.all([
      page.waitForRequest((r) => r.url().includes("/-/ask/stream?q=")),
      page.getByRole("form", { name: "Ask the wiki" }).getByRole("button", { name: "Ask" }).click(),
    ]);
    const answer = page.locator("section.answer");
    await answer.locator("p.coverage").waitFor();
    assert.equal(await page.evaluate("window.stayed"), true, "the answer came into this page");
    assert.equal(
      page.url(),
      `${base}/w/handbook/-/ask?q=Which+port+do+I+open+for+the+service%3F`,
      "the address is the question's, to share or reload",
    );
    assert.match(await answer.locator("p.coverage").innerText(), /Answered from the wiki|Partly/);
    assert.match(await answer.locator(".answer-text").innerText(), /port 8443/);
    await page.getByRole("status").getByText("Answered.").waitFor();
    await screenshot(page, "ask");

    // The marker [1] jumps to its source; the source opens the page at the section.
    await answer.locator(".answer-text a", { hasText: "[1]" }).click();
    assert.match(page.url(), /#cite-1$/);
    const citation = answer.locator("ol.citations li#cite-1 a");
    assert.equal(await citation.innerText(), "Setup > Ports");
    await citation.click();
    await page.waitForURL(`${base}/w/handbook/Guides/Setup#ports`);
    await page.locator("#ports").waitFor();

    // A question the wiki cannot answer says so plainly, with the notes and "write this page".
    await page.goto(`${base}/w/handbook/-/ask`);
    await page.getByLabel("Your question").fill("How do I rotate the API keys?");
    await page.getByRole("form", { name: "Ask the wiki" }).getByRole("button", { name: "Ask" })
      .click();
    const notAnswered = page.locator("section.answer p.coverage.unsupported");
    await notAnswered.waitFor();
    assert.match(await notAnswered.innerText(), /Not answered: the wiki does not cover this yet/);
    const frontier = page.locator("ul.frontier");
    assert.match(await frontier.innerText(), /No retrieved passage mentions/);
    assert.equal(
      await frontier.getByRole("link", { name: "Write this page" }).getAttribute("href"),
      "/w/handbook/-/new?path=Rotate+API+keys",
    );
    assert.deepEqual(live.violations, [], "no script is blocked by the CSP");

    // The wiki bar's Ask button, from any page, streams the answer into the Ask page too.
    await page.goto(`${base}/w/handbook/Guides/Setup`);
    await page.locator("#wiki-search").fill("Which port do I open for the service?");
    await Promise.all([
      page.waitForRequest((r) => r.url().includes("/-/ask/stream?q=")),
      page.locator("form.wiki-search").getByRole("button", { name: "Ask" }).click(),
    ]);
    await page.getByRole("status").getByText("Answered.").waitFor();
    assert.match(await page.locator("section.answer .answer-text").innerText(), /port 8443/);
    assert.equal(
      page.url(),
      `${base}/w/handbook/-/ask?q=Which+port+do+I+open+for+the+service%3F`,
      "the address drops stream=1, so a reload answers in full",
    );

    // Without JavaScript the same form is a GET that returns the whole answer.
    const plain = await live.browser.newContext({ javaScriptEnabled: false });
    await plain.addCookies(await page.context().cookies());
    const noScript = await plain.newPage();
    await noScript.goto(`${base}/w/handbook/-/ask`);
    await noScript.getByLabel("Your question").fill("Which port do I open for the service?");
    await noScript.getByRole("form", { name: "Ask the wiki" }).getByRole("button", { name: "Ask" })
      .click();
    await noScript.waitForURL(/\/-\/ask\?q=Which\+port/);
    assert.match(await noScript.locator("section.answer").innerText(), /port 8443[^]*Sources/);
    await plain.close();
  },
});

Deno.test({
  name: "an assistant's unanswered MCP ask shows in the usage page's coverage gaps, and " +
    "'write this page' opens the editor with its title",
  ignore: !CHROMIUM,
  fn: async () => {
    await using live = await liveHandbook();
    const { base, page, db } = live;
    const [ana] = await db<{ id: string }>`SELECT id FROM accounts`;
    const { token } = await createToken(db, { accountId: ana!.id, kind: "account", name: "bot" });
    const client = new Client({ name: "gap-finder", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp/`), {
        requestInit: {
          headers: { Authorization: `Bearer ${token}`, "User-Agent": "claude-code/2" },
        },
      }),
    );
    for (const question of ["How do I rotate the API keys?", "When are API keys rotated?"]) {
      const asked = await client.callTool({
        name: "ask",
        arguments: { space: "handbook", question },
      });
      assert.ok(!asked.isError, JSON.stringify(asked.content));
      assert.equal((asked.structuredContent as { coverage: string }).coverage, "unsupported");
    }
    const searched = await client.callTool({
      name: "search",
      arguments: { space: "handbook", query: "metrics port" },
    });
    assert.ok(!searched.isError);
    const answered = await client.callTool({
      name: "ask",
      arguments: { space: "handbook", question: "Which port is for the metrics?" },
    });
    assert.ok(!answered.isError);
    await client.close();

    await page.goto(`${base}/w/handbook/-/usage`);
    const gaps = page.locator("ol.gaps > li");
    assert.equal(await gaps.count(), 1, "the two questions about API keys are one gap");
    assert.match(await gaps.first().innerText(), /Rotate API keys[^]*asked 2 times/);
    const questions = page.locator("table.questions");
    assert.match(await questions.innerText(), /Which port is for the metrics\?/);
    assert.match(await questions.innerText(), /MCP \(claude-code\)/);
    assert.match(await page.locator("ul.totals").innerText(), /3 questions/);
    assert.match(await page.locator("table.searches").innerText(), /metrics port/);
    await screenshot(page, "usage");

    await gaps.first().getByRole("link", { name: "Write this page" }).click();
    await page.waitForURL(`${base}/w/handbook/-/new?path=Rotate+API+keys`);
    assert.equal(await page.getByLabel("Path").inputValue(), "Rotate API keys");
    assert.deepEqual(live.violations, []);
  },
});
