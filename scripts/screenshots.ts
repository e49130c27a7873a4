/**
 * Captures every page of the web app in light and dark, on a desktop (1280×800) and a phone
 * (390×844), into `docs/screenshots/<page>-<light|dark>-<desktop|phone>.png`.
 *
 * It serves the app on a loopback port over a throwaway store (in-memory PGlite, or a new
 * database on `DATABASE_URL`'s server) seeded with the guide, a team, its space of a few pages
 * with an image, and some use over REST; signs in through the sign-in form; then visits each
 * page once per screen size and shoots it once per colour scheme (`emulateMedia`, no reload).
 * Each page is taken when its own content is there (a selector), never after a fixed sleep;
 * a selector that no longer matches is reported and the page is taken anyway, so a changed
 * page never stops the run.
 *
 * Usage: `deno task screenshots` (needs Chromium: `apt-get install chromium`, or
 * `CHROMIUM_PATH`). `ONLY=ask,editor deno task screenshots` takes only those pages;
 * `SCREENSHOTS_PORT` picks the loopback port (8765 by default).
 */
import type { Browser, BrowserContext, Page } from "npm:playwright-core@1.65.1";
import { createApp } from "../src/app.ts";
import { saveAttachment } from "../src/attachments/attachments.ts";
import type { Deps } from "../src/deps.ts";
import { createToken } from "../src/auth/tokens.ts";
import { loadConfig } from "../src/config/config.ts";
import { openThrowawayStore } from "../src/db/throwaway.ts";
import { createLog } from "../src/lib/log.ts";
import { writePage } from "../src/pages/write_page.ts";
import { createOfflineEmbedder } from "../src/search/offline_embedder.ts";
import { setPassword } from "../src/sessions/change_password.ts";
import { inviteToTeam } from "../src/teams/invitations.ts";
import { shareSpace } from "../src/sharing/shares.ts";
import { addTeamMember, createTeam } from "../src/teams/teams.ts";
import { createAccount } from "../src/accounts/accounts.ts";
import { seedDocs } from "../src/wikis/seed_docs.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { chromiumPath, launchChromium } from "../tests/chromium.ts";

const OUT = new URL("../docs/screenshots/", import.meta.url);
const EMAIL = "ana@example.com";
const PASSWORD = "correct horse battery staple";
const SPACE = "handbook";
const TEAM = "docs-team";

const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };
/** The tallest part of a page kept (a full page, cut): enough to judge it, small to store. */
const MAX_HEIGHT = { desktop: 2000, phone: 2600 };

/**
 * One page of the app: where it is, what shows it is ready, and who looks at it; `act` does
 * what a person does on it first (switch the editor to Visual, create a token, open the
 * palette or the menu).
 */
type Shot = {
  name: string;
  path: string;
  ready: string;
  signedOut?: boolean;
  act?: (page: Page) => Promise<void>;
  /** Only what the screen shows (an overlay such as the palette covers the screen only). */
  screen?: boolean;
};

/** Opens the Ctrl+K palette and types a query with a typo. */
async function openPalette(page: Page) {
  await page.keyboard.press("Control+k");
  await page.getByRole("combobox").fill("configuraton");
  await page.getByRole("option").first().waitFor({ timeout: 15_000 });
}

/** Opens the phone's menu (a desktop has none: its links are in the header). */
async function openMenu(page: Page) {
  const menu = page.getByRole("button", { name: "Menu" });
  if (await menu.isVisible()) await menu.click();
}

const PAGES = (oauthPath: string): Shot[] => [
  { name: "landing", path: "/", ready: "main h1", signedOut: true },
  { name: "signin", path: "/signin", ready: "form[action='/signin']", signedOut: true },
  { name: "signup", path: "/signup", ready: "form[action='/signup']", signedOut: true },
  { name: "dashboard", path: "/account", ready: "main h1" },
  { name: "wiki-home", path: `/w/${SPACE}`, ready: "article" },
  { name: "page", path: `/w/${SPACE}/Guides/Setup`, ready: "article img" },
  { name: "all-pages", path: `/w/${SPACE}/-/pages`, ready: "main a[href$='/Setup']" },
  { name: "history", path: `/w/${SPACE}/-/history/Guides/Setup`, ready: "main table" },
  { name: "editor", path: `/w/${SPACE}/-/edit/Guides/Setup`, ready: "textarea" },
  {
    name: "editor-visual",
    path: `/w/${SPACE}/-/edit/Guides/Setup`,
    ready: ".milkdown .ProseMirror table",
    act: (page) => page.getByLabel("Visual").check(),
  },
  { name: "search", path: `/w/${SPACE}/-/search?q=install`, ready: "main a[href*='Setup']" },
  { name: "ask", path: `/w/${SPACE}/-/ask?q=${q("Which port do I open?")}`, ready: ".coverage" },
  {
    name: "ask-table",
    path: `/w/docs/-/ask?q=${q("How do I connect a space to a Git repository?")}`,
    ready: ".coverage",
    signedOut: true,
  },
  { name: "files", path: `/w/${SPACE}/-/files`, ready: "main a[href$='.png']" },
  { name: "import", path: `/w/${SPACE}/-/import`, ready: "input[type=file]" },
  { name: "tokens", path: "/account/tokens", ready: "main form" },
  {
    name: "token-connect",
    path: "/account/tokens",
    ready: "#new-token",
    act: async (page) => {
      await page.getByLabel("Name").fill("Laptop");
      await page.getByRole("button", { name: "Create token" }).click();
    },
  },
  { name: "connect-all", path: "/connect", ready: "main pre:visible" },
  { name: "connect", path: `/w/${SPACE}/-/connect`, ready: "main pre:visible" },
  { name: "usage", path: `/w/${SPACE}/-/usage`, ready: "main svg[role=img]" },
  { name: "settings", path: `/w/${SPACE}/-/settings`, ready: "main form" },
  { name: "team", path: `/teams/${TEAM}`, ready: "main table" },
  { name: "people", path: `/w/${SPACE}/-/people`, ready: "main table" },
  { name: "consent", path: oauthPath, ready: "main form button" },
  { name: "api-reference", path: "/api/v1/docs", ready: "form.try" },
  { name: "shortcuts", path: "/shortcuts", ready: "main table" },
  { name: "not-found", path: "/w/no-such-space", ready: "main h1" },
  // The published guide as an anonymous reader sees it: a docs site.
  { name: "docs-site", path: "/w/docs/Self-hosting", ready: "article", signedOut: true },
  { name: "docs-code", path: "/w/docs/Code", ready: "article .code-block", signedOut: true },
  {
    name: "docs-palette",
    path: "/w/docs/Self-hosting",
    ready: "article",
    signedOut: true,
    act: openPalette,
    screen: true,
  },
  {
    name: "docs-menu",
    path: "/w/docs/Writing%20pages",
    ready: "article",
    signedOut: true,
    act: openMenu,
  },
];

function q(text: string): string {
  return encodeURIComponent(text);
}

/** The image the Setup page shows: a small diagram drawn by the browser itself. */
async function diagramPng(browser: Browser): Promise<Uint8Array> {
  const page = await browser.newPage({ viewport: { width: 480, height: 200 } });
  await page.setContent(`<body style="margin:0;font:16px system-ui;background:#fff">
<svg width="480" height="200" xmlns="http://www.w3.org/2000/svg">
<rect x="20" y="70" width="120" height="60" rx="8" fill="#dbe7ff" stroke="#0645ad"/>
<text x="80" y="105" text-anchor="middle">Assistant</text>
<rect x="180" y="70" width="120" height="60" rx="8" fill="#e6ffec" stroke="#1b7a1b"/>
<text x="240" y="105" text-anchor="middle">Wiki (MCP)</text>
<rect x="340" y="70" width="120" height="60" rx="8" fill="#fff3b0" stroke="#8a5a00"/>
<text x="400" y="105" text-anchor="middle">Your pages</text>
<path d="M140 100h38M300 100h38" stroke="#333" stroke-width="2"/></svg></body>`);
  const png = await page.screenshot({ type: "png" });
  await page.close();
  return new Uint8Array(png);
}

const SETUP = `# Setup

How to set the service up on your own machine.

![How the pieces talk](/w/${SPACE}/-/files/diagram.png)

## Install

Download the release and unpack it, then run:

\`\`\`sh
deno task start
\`\`\`

## Configure

| Setting    | Default                 | What it does            |
| ---------- | ----------------------- | ----------------------- |
| \`PORT\`     | 8000                    | Where the server listens |
| \`BASE_URL\` | http://localhost:8000   | The public address      |

### Ports

Open port 8000 in the firewall.

## Verify

Open the health page. Next: [[Guides/Tuning]], or ask about [[Reference/Glossary]].
`;

/** A page of the guide's wiki with code, a callout and tabs, as imported docs hold them. */
const CODE = `# Code and callouts

Run the server, then check it answers.

\`\`\`sh
deno task start   # listens on $PORT
curl -s http://localhost:8000/health | jq .status
\`\`\`

:::warning Back up first
An import replaces pages of the same path.
:::

{% tabs %}
{% tab title="TypeScript" %}
\`\`\`ts
const res = await fetch(\`\${base}/api/v1/spaces\`, { headers: { Authorization: "Bearer " + token } });
console.log((await res.json()).spaces.length);
\`\`\`
{% endtab %}
{% tab title="Python" %}
\`\`\`python
import requests
print(len(requests.get(f"{base}/api/v1/spaces").json()["spaces"]))
\`\`\`
{% endtab %}
{% endtabs %}
`;

/** The store: the guide, Ana and Bo, a team with its space of a few pages, and some use. */
async function seed(deps: Parameters<typeof seedDocs>[0] & Pick<Deps, "config">, browser: Browser) {
  const { db } = deps;
  await seedDocs(deps);
  await writePage(deps, { wikiId: "docs", path: "Code", markdown: CODE }, { source: "web" });
  const ana = await createAccount(db, { email: EMAIL, name: "Ana Lima" });
  await setPassword(db, ana.id, PASSWORD);
  await createAccount(db, { email: "bo@example.com", name: "Bo Chen" });
  await createTeam(db, { id: TEAM, name: "Docs team", ownerAccountId: ana.id });
  await addTeamMember(db, {
    actorId: ana.id,
    teamId: TEAM,
    email: "bo@example.com",
    role: "member",
  });
  await inviteToTeam(db, {
    actorId: ana.id,
    teamId: TEAM,
    email: "cy@example.com",
    role: "member",
  });
  await createWiki(db, {
    id: SPACE,
    title: "Handbook",
    description: "How the docs team works",
    visibility: "private",
    ownerTeamId: TEAM,
  });
  await shareSpace(db, {
    wikiId: SPACE,
    email: "dee@example.org",
    role: "viewer",
    actorId: ana.id,
  });
  await saveAttachment(deps, {
    wikiId: SPACE,
    fileName: "diagram.png",
    bytes: await diagramPng(browser),
    accountId: ana.id,
  });
  const pages: Record<string, string> = {
    "Home": "# Home\n\nWelcome to the docs team's handbook. Start with [[Guides/Setup]], " +
      "then read [[Guides/Tuning]].\n\n- Write in short sections\n- Link pages with `[[…]]`\n",
    "Guides": "# Guides\n\nEverything you do once.\n",
    "Guides/Setup": SETUP,
    "Guides/Tuning": "# Tuning\n\nRaise the pool size to 20 under load.\n",
    "Reference/Api": "# API\n\nEvery endpoint is in the [API reference](/api/v1/docs).\n",
    "Team/Onboarding": "# Onboarding\n\nYour first week: read [[Home]], pair on a page.\n",
  };
  for (const [path, markdown] of Object.entries(pages)) {
    await writePage(deps, { wikiId: SPACE, path, markdown }, { source: "web", author: ana.id });
  }
  return ana;
}

/** Some use of the space over REST, as assistants and scripts would make it. */
async function use(base: string, token: string) {
  const calls: [string, string, string?][] = [
    ["claude-code/2.0.1", `/spaces/${SPACE}/search?q=install`],
    ["claude-code/2.0.1", `/spaces/${SPACE}/search?q=port`],
    ["cursor/1.4", `/spaces/${SPACE}/pages/${q("Guides/Setup")}`],
    ["cursor/1.4", `/spaces/${SPACE}/pages/Home`],
    ["claude-code/2.0.1", `/spaces/${SPACE}/ask`, "Which port do I open?"],
    ["cursor/1.4", `/spaces/${SPACE}/ask`, "How do we deploy to production?"],
  ];
  for (const [agent, path, question] of calls) {
    const res = await fetch(`${base}/api/v1${path}`, {
      method: question ? "POST" : "GET",
      headers: {
        Authorization: `Bearer ${token}`,
        "User-Agent": agent,
        ...(question ? { "Content-Type": "application/json" } : {}),
      },
      body: question ? JSON.stringify({ question }) : undefined,
    });
    await res.body?.cancel();
    if (!res.ok) console.warn(`use: ${path} answered ${res.status}`);
  }
}

/** An OAuth client registered as an assistant would (RFC 7591), and its consent page's path. */
async function consentPath(base: string): Promise<string> {
  const redirect = "http://127.0.0.1:9/callback";
  const res = await fetch(`${base}/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      client_name: "Field assistant",
      redirect_uris: [redirect],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    }),
  });
  const { client_id } = await res.json() as { client_id: string };
  const verifier = crypto.randomUUID() + crypto.randomUUID();
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  const challenge = btoa(String.fromCharCode(...new Uint8Array(digest)))
    .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  return `/authorize?${new URLSearchParams({
    client_id,
    redirect_uri: redirect,
    response_type: "code",
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "screenshots",
    resource: `${base}/mcp`,
  })}`;
}

async function signIn(context: BrowserContext, base: string) {
  const page = await context.newPage();
  await page.goto(`${base}/signin`);
  await page.getByLabel("Email").fill(EMAIL);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.locator("form[action='/signin'] button[type=submit]").click();
  await page.waitForURL((url) => !url.pathname.startsWith("/signin"));
  await page.close();
}

/** Visits a page at one size and shoots it in both colour schemes. */
async function shoot(page: Page, base: string, shot: Shot, size: keyof typeof SIZES) {
  await page.setViewportSize(SIZES[size]);
  await page.emulateMedia({ colorScheme: "light" });
  const response = await page.goto(base + shot.path);
  try {
    await shot.act?.(page);
    await page.locator(shot.ready).first().waitFor({ timeout: 15_000 });
  } catch {
    console.warn(`${shot.name}: "${shot.ready}" did not show (status ${response?.status()})`);
  }
  await page.evaluate("document.fonts.ready");
  // Wider than the screen: the page scrolls sideways (a phone's header strip scrolls by design).
  const wide = await page.evaluate<number>("document.documentElement.scrollWidth");
  if (wide > SIZES[size].width) {
    console.warn(`${shot.name} (${size}): ${wide}px wide, wider than the screen`);
  }
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const height = await page.evaluate<number>("document.documentElement.scrollHeight");
    const { width } = SIZES[size];
    await page.screenshot({
      path: new URL(`${shot.name}-${scheme}-${size}.png`, OUT).pathname,
      fullPage: true,
      clip: {
        x: 0,
        y: 0,
        width,
        height: shot.screen ? SIZES[size].height : Math.min(height, MAX_HEIGHT[size]),
      },
      animations: "disabled",
      caret: "hide",
    });
  }
}

/** `docs/screenshots/README.md`: every page in its four takes, linked. */
function index(shots: Shot[]): string {
  const takes = ["light-desktop", "dark-desktop", "light-phone", "dark-phone"];
  const rows = shots.map((s) =>
    `| ${s.name} | ${takes.map((t) => `[${t}](${s.name}-${t}.png)`).join(" | ")} |`
  );
  return [
    "# Screenshots",
    "",
    "Every page of the web app, light and dark, on a desktop (1280×800) and a phone (390×844),",
    "taken by `deno task screenshots` (`scripts/screenshots.ts`) over a seeded throwaway store.",
    "Long pages are cut at 2000 px (desktop) and 2600 px (phone).",
    "",
    `| Page | ${takes.join(" | ")} |`,
    `| --- | ${takes.map(() => "---").join(" | ")} |`,
    ...rows,
    "",
  ].join("\n");
}

async function main() {
  const executable = chromiumPath();
  if (!executable) throw new Error("No Chromium: apt-get install chromium, or set CHROMIUM_PATH");
  const started = performance.now();
  const { db, drop } = await openThrowawayStore({
    databaseUrl: Deno.env.get("DATABASE_URL") || undefined,
  });
  const late: { app?: ReturnType<typeof createApp> } = {};
  const handler: Deno.ServeHandler<Deno.NetAddr> = (request, info) =>
    late.app!.fetch(request, { remoteAddr: info.remoteAddr });
  // One port when it is free, so the addresses shown on the pages stay the same between runs.
  const serve = (port: number) =>
    Deno.serve({ hostname: "127.0.0.1", port, onListen() {} }, handler);
  let server: Deno.HttpServer<Deno.NetAddr>;
  try {
    server = serve(Number(Deno.env.get("SCREENSHOTS_PORT") ?? 8765));
  } catch (error) {
    if (!(error instanceof Deno.errors.AddrInUse)) throw error;
    server = serve(0);
  }
  const base = `http://127.0.0.1:${server.addr.port}`;
  const config = loadConfig({
    BASE_URL: base,
    RATE_LIMIT_ANON_PER_MINUTE: "100000",
    RATE_LIMIT_TOKEN_PER_MINUTE: "100000",
    RATE_LIMIT_WEB_PER_MINUTE: "100000",
  });
  const deps = { config, db, log: createLog("error"), embedder: createOfflineEmbedder() };
  late.app = createApp(deps);
  const browser = await launchChromium(executable);
  try {
    const ana = await seed(deps, browser);
    const { token } = await createToken(db, { accountId: ana.id, kind: "account", name: "CI" });
    await use(base, token);
    const only = Deno.env.get("ONLY")?.split(",");
    const shots = PAGES(await consentPath(base)).filter((s) => !only || only.includes(s.name));
    await Deno.mkdir(OUT, { recursive: true });
    const visitor = await browser.newContext();
    const member = await browser.newContext();
    await signIn(member, base);
    const pages = { visitor: await visitor.newPage(), member: await member.newPage() };
    for (const shot of shots) {
      const page = shot.signedOut ? pages.visitor : pages.member;
      await shoot(page, base, shot, "desktop");
      await shoot(page, base, shot, "phone");
      console.log(`${shot.name}: 4 screenshots`);
    }
    if (!only) {
      const file = new URL("README.md", OUT).pathname;
      await Deno.writeTextFile(file, index(shots));
      await new Deno.Command(Deno.execPath(), { args: ["fmt", "--quiet", file] }).output();
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(0);
    console.log(`${shots.length * 4} screenshots in docs/screenshots/ (${seconds} s)`);
  } finally {
    await browser.close();
    await server.shutdown();
    await drop();
  }
}

if (import.meta.main) await main();
