import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "npm:@modelcontextprotocol/client@2.4.0";
import type { Page } from "npm:playwright-core@1.65.1";
import { createToken } from "../src/auth/tokens.ts";
import { importPages } from "../src/importer/import_pages.ts";
import { readSources } from "../src/importer/read_sources.ts";
import { GUIDE_DIR } from "../src/wikis/seed_docs.ts";
import { CHROMIUM, createSpace, liveApp, signUp } from "./live_app.ts";
import { selectAccountByEmail } from "../src/accounts/mod.ts";

const ROOT = new URL("../", import.meta.url);

/** What the host page puts on its window (HOST_SCRIPT), as the test's page functions see it. */
type HostGlobals = {
  startHost(args: Record<string, unknown>): Promise<void>;
  openedLinks: string[];
  document: { querySelector(s: string): { style: { height: string } } };
};

/** ext-apps' AppBridge and PostMessageTransport, bundled for the browser by `deno bundle`. */
async function bundleHost(): Promise<string> {
  const out = await Deno.makeTempFile({ suffix: ".js" });
  try {
    const bundled = await new Deno.Command(Deno.execPath(), {
      args: [
        "bundle",
        "--lock=deno.dev.lock",
        "--platform",
        "browser",
        "-o",
        out,
        "tests/mcp_app/host_entry.ts",
      ],
      cwd: fileURLToPath(ROOT),
      stdout: "null",
      stderr: "piped",
    }).output();
    assert.ok(bundled.success, new TextDecoder().decode(bundled.stderr));
    return await Deno.readTextFile(out);
  } finally {
    await Deno.remove(out);
  }
}

/**
 * A minimal MCP Apps host on AppBridge: the view in a sandboxed iframe (scripts only, an opaque
 * origin), the tool's input and result sent once the view has initialized, its tool calls
 * forwarded to the test's MCP client (`hostCallTool`), its open-link requests recorded.
 */
const HOST_SCRIPT = `
globalThis.openedLinks = [];
globalThis.startHost = async ({ html, input, result, theme, maxHeight = 6000 }) => {
  const iframe = document.createElement("iframe");
  iframe.setAttribute("sandbox", "allow-scripts");
  iframe.setAttribute("title", "wiki view");
  iframe.style.cssText = "width: 720px; height: 200px; border: 1px solid #8888";
  iframe.srcdoc = html;
  document.body.append(iframe);
  const bridge = new AppBridge(null, { name: "test-host", version: "1.0.0" },
    { openLinks: {}, serverTools: {} },
    { hostContext: { theme, displayMode: "inline", containerDimensions: { width: 720, maxHeight } } });
  bridge.oncalltool = (params) => globalThis.hostCallTool(params);
  bridge.onopenlink = async ({ url }) => { globalThis.openedLinks.push(url); return {}; };
  bridge.onsizechange = ({ height }) => { if (height) iframe.style.height = height + "px"; };
  bridge.oninitialized = () => {
    bridge.sendToolInput({ arguments: input });
    bridge.sendToolResult(result);
  };
  globalThis.bridge = bridge;
  await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
};`;

async function hostPage(page: Page, hostJs: string, client: Client): Promise<string[]> {
  const requests: string[] = [];
  page.on("request", (r) => requests.push(r.url()));
  await page.exposeFunction(
    "hostCallTool",
    async (params: { name: string; arguments: Record<string, unknown> }) =>
      await client.callTool(params),
  );
  await page.setContent("<!doctype html><html><body style='margin:16px'></body></html>");
  await page.addScriptTag({ content: hostJs });
  await page.addScriptTag({ content: HOST_SCRIPT });
  return requests;
}

/** Saves the view into docs/screenshots/ when UPDATE_SCREENSHOTS=1. */
async function keep(page: Page, name: string) {
  if (Deno.env.get("UPDATE_SCREENSHOTS") !== "1") return;
  await page.locator("iframe").screenshot({
    path: fileURLToPath(new URL(`docs/screenshots/${name}.png`, ROOT)),
  });
}

Deno.test({
  name:
    "MCP App: the wiki view in an AppBridge host shows an answer with its sources and quotes, opens pages through the host, files a report its owner sees",
  ignore: !CHROMIUM,
  async fn() {
    const hostJs = await bundleHost();
    await using live = await liveApp();
    // Ana's private space holds the guide; the host holds her token, the view never does.
    const owner = await live.window();
    await signUp(owner, live.base, "ana@example.com");
    await createSpace(owner, live.base, "handbook", "Handbook");
    await importPages(live.deps, "handbook", await readSources(fileURLToPath(GUIDE_DIR)));
    const ana = (await selectAccountByEmail(live.db, "ana@example.com"))!;
    const { token } = await createToken(live.db, {
      accountId: ana.id,
      kind: "account",
      name: "host",
    });
    const client = new Client({ name: "test-host", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${live.base}/mcp/`), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    try {
      const tools = (await client.listTools()).tools;
      const uri = (tools.find((t) => t.name === "ask")!._meta!.ui as { resourceUri: string })
        .resourceUri;
      const view = (await client.readResource({ uri })).contents[0] as {
        text: string;
        mimeType: string;
      };
      assert.equal(view.mimeType, "text/html;profile=mcp-app");
      const input = { space: "handbook", question: "Which port do I open?" };
      const result = await client.callTool({ name: "ask", arguments: input });
      const answer = result.structuredContent as {
        answer: string;
        citations: { n: number; url: string; quote: string; title: string }[];
      };
      assert.ok(answer.citations.length > 0, answer.answer);

      for (const theme of ["light", "dark"] as const) {
        const page = await live.window({ width: 800, height: 900 });
        const requests = await hostPage(page, hostJs, client);
        await page.evaluate((args) => (globalThis as unknown as HostGlobals).startHost(args), {
          html: view.text,
          input,
          result,
          theme,
        });
        const frame = page.frameLocator("iframe");
        await frame.getByText("The service listens on port 8000").first().waitFor();
        const sources = frame.locator(".sources > li");
        assert.equal(await sources.count(), answer.citations.length);
        // Each quote is highlighted inside a longer excerpt of its page, read through the host.
        const first = answer.citations[0]!;
        const excerpt = sources.first().locator(".excerpt");
        await excerpt.locator("mark").getByText(first.quote.slice(0, 30)).waitFor();
        await page.waitForFunction(() =>
          Number.parseInt(
            (globalThis as unknown as HostGlobals).document.querySelector("iframe").style.height,
          ) > 300
        );
        // The quote stands alone until the page's excerpt comes back through the host: wait for it.
        const longer = async () => (await excerpt.innerText()).length > first.quote.length;
        for (let i = 0; i < 100 && !(await longer()); i++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        assert.ok(await longer(), "the quote is shown inside a longer excerpt of its page");
        assert.equal(
          await frame.locator("html").getAttribute("data-theme"),
          theme,
        );
        await keep(page, `mcp-app-answer-${theme}`);
        // A source's title opens its page in the web app, through the host.
        await sources.first().getByRole("link", { name: first.title }).click();
        await page.waitForFunction(() =>
          (globalThis as unknown as HostGlobals).openedLinks.length > 0
        );
        assert.deepEqual(
          await page.evaluate(() => (globalThis as unknown as HostGlobals).openedLinks),
          [first.url],
        );
        // Nothing was fetched by the view itself: no request left the host page.
        assert.deepEqual(requests, []);
        if (theme === "dark") break;

        // The wrong-answer button files report_problem through the host's tools/call.
        await frame.getByRole("button", { name: "This answer is wrong / outdated" }).click();
        await frame.getByRole("textbox").fill("Port 8000 is only the default; PORT changes it.");
        await frame.getByRole("button", { name: "Send to the wiki's owners" }).click();
        const status = frame.locator(".report-status");
        await status.getByText(/^(Reported|Not sent)/).waitFor();
        assert.match(await status.innerText(), /^Reported: the owners of "/);
        await page.close();
      }
      // The owner sees the report on the space's feedback page.
      await owner.goto(`${live.base}/w/handbook/-/feedback`);
      await owner.getByText("Port 8000 is only the default; PORT changes it.").waitFor();
    } finally {
      await client.close();
    }
  },
});

Deno.test({
  name: "MCP App: search results open a page in the view, with its headings, through get_page",
  ignore: !CHROMIUM,
  async fn() {
    const hostJs = await bundleHost();
    await using live = await liveApp({}, { seedDocs: true });
    const client = new Client({ name: "test-host", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${live.base}/mcp/w/docs/`)));
    try {
      const view = (await client.readResource({ uri: "ui://knowledge-wiki/view.html" }))
        .contents[0] as { text: string };
      const input = { query: "tokens" };
      const result = await client.callTool({ name: "search", arguments: input });
      const page = await live.window({ width: 800, height: 900 });
      await hostPage(page, hostJs, client);
      await page.evaluate((args) => (globalThis as unknown as HostGlobals).startHost(args), {
        html: view.text,
        input,
        result,
        theme: "light",
        maxHeight: 900,
      });
      const frame = page.frameLocator("iframe");
      const top = (result.structuredContent as { results: { title: string }[] }).results[0]!;
      await frame.getByRole("button", { name: top.title }).first().click();
      await frame.getByRole("navigation", { name: "Headings" }).waitFor();
      await frame.locator("article.page h2").first().waitFor();
      await frame.locator("article.page table").first().waitFor();
      // The host's size hint holds: the view scrolls inside 900 px rather than growing past it.
      const height = await page.locator("iframe").evaluate((f) => f.getBoundingClientRect().height);
      assert.ok(height <= 904, `${height}`);
      await keep(page, "mcp-app-page-light");
    } finally {
      await client.close();
    }
  },
});
