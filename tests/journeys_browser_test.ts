import assert from "node:assert/strict";
import { createAccount } from "../src/accounts/accounts.ts";
import { addTeamMember, createTeam } from "../src/teams/teams.ts";
import { recordSearch } from "../src/usage/record_usage.ts";
import { screenshot } from "./chromium.ts";
import { CHROMIUM, createSpace, liveApp, signUp } from "./live_app.ts";
import { seedPages } from "./space_helpers.ts";

// Real headless Chromium against a real server on loopback: teams, search across spaces and
// the frame of a space's pages (issue 18, items 4, 6 and 9). Same set-up as web_browser_test.

/** The live app (tests/live_app.ts), with rate limits no journey reaches. */
const liveServer = () =>
  liveApp({ RATE_LIMIT_ANON_PER_MINUTE: "100000", RATE_LIMIT_WEB_PER_MINUTE: "100000" });

Deno.test({
  name: "an owner moves a space to a new team and invites; the invitee accepts and reads it; " +
    "removed, their access ends; an unknown email gets the same page",
  ignore: !CHROMIUM,
  fn: async () => {
    await using live = await liveServer();
    const { base, deps } = live;
    const ana = await live.window();
    await signUp(ana, base, "ana@example.com", "Ana");
    await createSpace(ana, base, "field-notes", "Field notes");
    await seedPages(deps, "field-notes", { "Herons": "# Herons\n\nThey nest in reeds.\n" });
    await ana.goto(`${base}/account`);
    await ana.getByLabel("Team id").fill("lab");
    await ana.getByLabel("Team name").fill("The lab");
    await ana.getByRole("button", { name: "Create team" }).click();
    await ana.waitForURL(`${base}/teams/lab`);

    // Move the personal space to the team, from its settings.
    await ana.goto(`${base}/w/field-notes/-/settings`);
    await ana.getByLabel("Team").selectOption("lab");
    await ana.getByLabel(/cannot be made personal again/).check();
    await screenshot(ana, "move-to-team");
    await ana.getByRole("button", { name: "Move to this team" }).click();
    await ana.waitForURL(`${base}/w/field-notes/-/settings?moved=1`);
    await ana.getByText("belongs to the team").waitFor();

    // Invite: an email with no account yet, and one that never signs up. Same page each time.
    for (const email of ["bo@example.com", "nobody@example.com"]) {
      await ana.goto(`${base}/teams/lab`);
      await ana.getByLabel("Email of their account").fill(email);
      const answer = ana.waitForResponse((r) => r.url() === `${base}/teams/lab?invited=1`);
      await ana.getByRole("button", { name: "Invite" }).click();
      assert.equal((await answer).status(), 200, email);
      await ana.getByText("Invitation sent").waitFor();
      assert.equal(await ana.getByRole("heading", { level: 1 }).innerText(), "The lab");
    }
    await screenshot(ana, "team-invited");

    // Bo signs up, sees the invitation on his dashboard, accepts, and reads the team's space.
    const bo = await live.window();
    await signUp(bo, base, "bo@example.com", "Bo");
    const invitations = bo.getByRole("region", { name: "Invitations" });
    await invitations.getByText("The lab").waitFor();
    await invitations.getByRole("button", { name: "Accept" }).click();
    await bo.waitForURL(`${base}/teams/lab`);
    await bo.locator("main").getByRole("link", { name: "Field notes" }).click();
    await bo.waitForURL(`${base}/w/field-notes`);
    await bo.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Herons" })
      .click();
    await bo.getByText("They nest in reeds.").waitFor();

    // Ana removes Bo: his next visit is the not-found page.
    await ana.goto(`${base}/teams/lab`);
    const row = ana.getByRole("row", { name: /bo@example\.com/ });
    await row.getByLabel(/Yes, remove/).check();
    await row.getByRole("button", { name: "Remove" }).click();
    await ana.waitForURL(`${base}/teams/lab?removed`);
    await ana.getByText("Member removed").waitFor();
    assert.equal(await ana.getByRole("row", { name: /bo@example\.com/ }).count(), 0);
    const gone = await bo.goto(`${base}/w/field-notes/Herons`);
    assert.equal(gone!.status(), 404);
    assert.doesNotMatch(await bo.locator("main").innerText(), /nest in reeds/);
    await bo.goto(`${base}/account`);
    assert.equal(await bo.getByRole("link", { name: "Field notes" }).count(), 0);
  },
});

Deno.test({
  name: "at 1280 px the header is one line and the reading column wide; connect and usage keep " +
    "the space's navigation; ? lists the keys; search as you type covers all my spaces",
  ignore: !CHROMIUM,
  fn: async () => {
    await using live = await liveServer();
    const { base, deps } = live;
    const page = await live.window();
    await signUp(page, base, "ana.with.a.rather.long.address@example.com", "Anastasia Long-Name");
    await createSpace(page, base, "handbook", "Handbook");
    await createSpace(page, base, "field-notes", "Field notes");
    await seedPages(deps, "handbook", {
      "Home": "# Home\n\nWelcome.\n",
      "Guides/Setup": "# Setup\n\n## Ports\n\nOpen port 8000 for the [[Home|heron]] service.\n",
    });
    await seedPages(deps, "field-notes", {
      "Herons": "# Herons\n\n| Bird | Where |\n| --- | --- |\n| heron | reeds |\n",
    });

    // One line of header, at 1280 px, signed in with a long name, on every kind of page.
    for (const path of ["/account", "/w/handbook/Guides/Setup", "/w/handbook/-/connect"]) {
      await page.goto(`${base}${path}`);
      const header = (await page.locator("body > header").boundingBox())!;
      assert.ok(header.height < 70, `${path}: header height ${header.height}px`);
    }
    await page.goto(`${base}/w/handbook/Guides/Setup`);
    const column = (await page.locator(".wiki-content").boundingBox())!;
    assert.ok(column.width > 640, `reading column ${column.width}px`);

    // Connect and Usage keep the space's breadcrumb, tools and sidebar of pages.
    for (const tool of ["connect", "usage"]) {
      await page.goto(`${base}/w/handbook/-/${tool}`);
      await page.getByRole("navigation", { name: "Breadcrumb" })
        .getByRole("link", { name: "Handbook" }).waitFor();
      await page.getByRole("navigation", { name: "Wiki tools" }).waitFor();
      await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Setup" })
        .click();
      await page.waitForURL(`${base}/w/handbook/Guides/Setup`);
    }

    // "?" opens the list of keys.
    await page.locator("article").click();
    await page.keyboard.press("?");
    await page.waitForURL(`${base}/shortcuts`);
    await page.getByRole("rowheader", { name: /Search: put the cursor/ }).waitFor();

    // On the dashboard, "/" then typing suggests sections of every space, with the space named
    // and the snippet as clean text.
    await page.goto(`${base}/account`);
    await page.locator("main h2").first().click();
    await page.keyboard.press("/");
    await page.keyboard.type("heron");
    const suggestions = page.getByRole("list", { name: "Suggestions" });
    await suggestions.getByRole("link", { name: /Herons/ }).waitFor();
    await suggestions.getByRole("link", { name: /Setup/ }).waitFor();
    const text = await suggestions.innerText();
    assert.match(text, /Field notes/);
    assert.match(text, /Handbook › Setup > Ports/);
    assert.doesNotMatch(text, /\[\[|\|/);
    await screenshot(page, "search-all-suggest");
    await page.keyboard.press("Enter");
    await page.waitForURL(`${base}/account/search?q=heron`);
    await page.locator("ol.results").getByRole("link", { name: "Herons" }).click();
    await page.waitForURL(new RegExp(`^${base}/w/field-notes/Herons(#[a-z-]+)?$`));
  },
});

Deno.test({
  name: "on a 390 px phone the team page fits without scrolling sideways, its role select shows " +
    "its whole value, and the usage chart's axis text is readable",
  ignore: !CHROMIUM,
  fn: async () => {
    await using live = await liveServer();
    const { base, db, deps } = live;
    const page = await live.window();
    await signUp(page, base, "ana@example.com", "Ana Lima");
    await createSpace(page, base, "handbook", "Handbook");
    const [ana] = await db<{ id: string }>`SELECT id FROM accounts WHERE email = 'ana@example.com'`;
    await createTeam(db, { id: "docs-team", name: "Docs team", ownerAccountId: ana!.id });
    await createAccount(db, { email: "bo.with.a.long.address@example.com", name: "Bo Chen" });
    await addTeamMember(db, {
      actorId: ana!.id,
      teamId: "docs-team",
      email: "bo.with.a.long.address@example.com",
      role: "member",
    });
    await recordSearch(deps, {
      wikis: ["handbook"],
      query: "port",
      results: [{ wiki: "handbook" }],
      via: "rest",
      client: "claude-code/2.0",
    });
    await page.setViewportSize({ width: 390, height: 844 });

    await page.goto(`${base}/teams/docs-team`);
    // Run in the page (as a string: Deno's types have no DOM).
    const fit = await page.evaluate(`(() => {
      const width = document.documentElement.clientWidth;
      const members = document.querySelector("main table");
      const cutOff = [...members.querySelectorAll("select, button, input, label, td")]
        .filter((e) => e.getBoundingClientRect().right > width + 0.5)
        .map((e) => e.outerHTML.slice(0, 80));
      // The room a select leaves for its value, beside its padding and arrow.
      const context = document.createElement("canvas").getContext("2d");
      const room = [...members.querySelectorAll("select")].map((select) => {
        const style = getComputedStyle(select);
        context.font = style.font;
        const text = context.measureText(select.selectedOptions[0].text).width;
        return select.clientWidth - parseFloat(style.paddingLeft) -
          parseFloat(style.paddingRight) - text;
      });
      return {
        page: document.documentElement.scrollWidth - width,
        table: members.scrollWidth - members.clientWidth,
        cutOff,
        room,
      };
    })()`) as { page: number; table: number; cutOff: string[]; room: number[] };
    assert.equal(fit.page, 0, "the page scrolls sideways");
    assert.equal(fit.table, 0, "the members table scrolls sideways");
    assert.deepEqual(fit.cutOff, []);
    assert.equal(fit.room.length, 2);
    for (const room of fit.room) {
      assert.ok(room >= 16, `a select leaves ${room}px beside its value`);
    }
    await screenshot(page, "team-phone");

    await page.goto(`${base}/w/handbook/-/usage`);
    const sizes = await page.evaluate(`
      [...document.querySelectorAll("figure.chart svg[role=img] text")].map((text) => {
        const svg = text.ownerSVGElement;
        const box = text.getBBox();
        return {
          px: parseFloat(getComputedStyle(text).fontSize) * svg.getScreenCTM().a,
          inside: box.x >= 0 && box.x + box.width <= svg.viewBox.baseVal.width,
        };
      })`) as { px: number; inside: boolean }[];
    assert.ok(sizes.length >= 3);
    for (const size of sizes) {
      assert.ok(size.px >= 12, `axis text ${size.px.toFixed(1)}px on a phone`);
      assert.ok(size.inside, "axis text cut off by the chart's edge");
    }
    await screenshot(page, "usage-phone");
  },
});
