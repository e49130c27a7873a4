import assert from "node:assert/strict";
import { writePage } from "../src/pages/write_page.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, testApp } from "./helpers.ts";

const by = { source: "test" };

type Found = { results: { page: string; section: string | null; url: string }[] };

// A troubleshooting page: the symptoms repeat the question's words, the option the question
// asks for is named by its own heading.
const troubleshooting = `# Troubleshooting

## SELinux issues

### Symptoms

SELinux blocks the agent from the Docker socket: the agent logs "permission denied" when it
opens the socket, and no fix in the agent's settings helps while SELinux enforces.

### Option 1: Disable SELinux

Turn SELinux off on the host. Everything on the host loses its protection.

### Option 2: Configure an SELinux policy (recommended)

Install a policy module that lets the agent use the Docker socket and keeps SELinux enforcing.

## Disk space

Old images fill the disk; prune them weekly.
`;

// Another page of the wiki.
const promtool = `# promtool

## Commands

### \`promtool check metrics\`

Pass metrics in the text exposition format over stdin to lint them for consistency and
correctness, as an exporter exposes them.

#### Flags

| Flag | Description |
| --- | --- |
| \`--extended\` | Print extended information while you lint. |
| \`--lint\` | Linting checks to apply. Use none to skip lint. |

### \`promtool check config\`

Check that a configuration file is valid.
`;

Deno.test("search shows the section whose own heading names the question, not its neighbour", async () => {
  await using db = await freshDb();
  const { app, deps } = testApp(db);
  await createWiki(db, { id: "ops", visibility: "public" });
  await writePage(deps, { wikiId: "ops", path: "troubleshooting", markdown: troubleshooting }, by);
  await writePage(deps, { wikiId: "ops", path: "promtool", markdown: promtool }, by);
  const top = async (q: string) => {
    const res = await app.request(`/api/v1/public/wikis/ops/search?q=${encodeURIComponent(q)}`);
    assert.equal(res.status, 200);
    return ((await res.json()) as Found).results[0]!;
  };
  const fix = await top(
    "SELinux blocks the agent from the Docker socket. What is the recommended fix?",
  );
  assert.equal(fix.page, "troubleshooting");
  assert.equal(
    fix.section,
    "Troubleshooting > SELinux issues > Option 2: Configure an SELinux policy (recommended)",
  );
  assert.match(fix.url, /#option-2-configure-an-selinux-policy-recommended$/);
  // A question the symptoms' heading names keeps them first.
  const symptoms = await top("What are the symptoms of SELinux issues?");
  assert.equal(symptoms.section, "Troubleshooting > SELinux issues > Symptoms");
});

// An installation guide titled by what its steps do: its subsections' headings repeat the
// title's verb ("Configuring …", "Configure NGINX").
const httpServer = `# Configuring an HTTP Server

## HTTP Server Installation

Any HTTP server of your choosing is supported.

### NGINX

NGINX is a free, open source, high-performance HTTP server and reverse proxy and is by far the
most popular choice.

#### Install NGINX

Begin by installing NGINX with your system's package manager.

#### Configure NGINX

Once NGINX is installed, copy the following configuration into
\`/etc/nginx/sites-available/app.conf\` and point its \`proxy_pass\` at the application's port.

#### Restart NGINX

Restart the \`nginx\` service to use the new configuration.
`;

Deno.test("search shows the subsection whose heading names the question over its parent's lead", async () => {
  await using db = await freshDb();
  const { app, deps } = testApp(db);
  await createWiki(db, { id: "ops", visibility: "public" });
  await writePage(deps, { wikiId: "ops", path: "http-server", markdown: httpServer }, by);
  const res = await app.request(
    `/api/v1/public/wikis/ops/search?q=${
      encodeURIComponent("How do I configure NGINX as the reverse proxy?")
    }`,
  );
  const top = ((await res.json()) as Found).results[0]!;
  // "configure" is the title's word too, yet it is what tells the step from the lead that
  // says what NGINX is.
  assert.equal(
    top.section,
    "Configuring an HTTP Server > HTTP Server Installation > NGINX > Configure NGINX",
  );
});
