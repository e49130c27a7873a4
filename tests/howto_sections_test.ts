import assert from "node:assert/strict";
import { ask, docsWiki, evalPages, search } from "./docs_wiki.ts";

// An installation guide as MkDocs writes one: a tool's section ("NGINX") whose lead says what it
// is, and steps as subsections ("Install NGINX", "Configure NGINX"), the configuration a long
// block in tabs, with blank lines in it (eval/nautobot's installation/http-server, shortened).
const location = (n: number) => [
  `    location /app${n}/ {`,
  `        proxy_pass http://127.0.0.1:800${n % 10};`,
  "        proxy_set_header Host $host;",
  "        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;",
  "        proxy_set_header X-Forwarded-Proto $scheme;",
  "    }",
  "",
];
// Indented four spaces under its tab, as MkDocs writes it.
const config = [
  "server {",
  "    listen 443 ssl http2 default_server;",
  "",
  "    server_name _;",
  "",
  "    ssl_certificate /etc/ssl/certs/app.crt;",
  "    ssl_certificate_key /etc/ssl/private/app.key;",
  "",
  ...Array.from({ length: 12 }, (_, i) => location(i)).flat(),
  "}",
].map((l) => (l ? `    ${l}` : l)).join("\n");
const httpServer = `# Configuring an HTTP Server

## HTTP Server Installation

Any HTTP server of your choosing is supported. Setup instructions for NGINX are provided here.

### NGINX

NGINX is a free, open source, high-performance HTTP server and reverse proxy and is by far the
most popular choice.

#### Install NGINX

Begin by installing NGINX:

\`\`\`no-highlight
sudo apt install -y nginx
\`\`\`

#### Configure NGINX

Once NGINX is installed, copy and paste the following NGINX configuration into
\`/etc/nginx/sites-available/app.conf\`:

=== "Ubuntu/Debian"
    \`\`\`nginxconf
${config}
    \`\`\`

=== "CentOS/RHEL"
    \`\`\`nginxconf
${config.replaceAll("/etc/ssl/", "/etc/pki/tls/")}
    \`\`\`

#### Restart NGINX

Finally, restart the \`nginx\` service to use the new configuration.
`;

Deno.test("a how-to question naming a step's heading is answered from that step, its block whole", async () => {
  const { db, app } = await docsWiki({ "installation/http-server": httpServer });
  await using _db = db;
  const answer = await ask(app, "docs", "How do I configure NGINX as the reverse proxy?");
  // The step, not the lead that says what NGINX is.
  assert.match(answer.citations[0]!.section ?? "", /> Configure NGINX$/, answer.answer);
  assert.match(answer.answer, /^Once NGINX is installed, copy and paste/);
  assert.ok(
    answer.answer.indexOf("```nginxconf") < answer.answer.indexOf("free, open source") ||
      !answer.answer.includes("free, open source"),
    answer.answer,
  );
  // The configuration as written: opened by its fence, its lines' indentation kept after blank
  // lines (the chunker used to trim each run of lines between blank ones).
  assert.match(answer.answer, /```nginxconf\nserver \{\n {4}listen 443/);
  assert.match(answer.answer, /\n\n {4}server_name _;\n/);
});

Deno.test("the Ask page shows a source's code block indented under a tab as the block, not a stray fence", async () => {
  const { db, app } = await docsWiki({ "installation/http-server": httpServer });
  await using _db = db;
  const res = await app.request(
    `/w/docs/-/ask?q=${encodeURIComponent("How do I configure NGINX as the reverse proxy?")}`,
  );
  assert.equal(res.status, 200);
  const html = await res.text();
  const sources = html.slice(html.indexOf("Sources"));
  assert.match(sources, /<pre><code[^>]*>server \{\n {4}listen 443/);
  // The closing fence, indented four spaces under its tab, closes the block.
  assert.doesNotMatch(sources, /```/);
});

// A page titled with the word a section's heading shares with the question ("Workers"), whose
// neighbouring sections repeat the question's words in their text.
const services = `# Deploying the App: Web Service and Workers

## Setup systemd

### Background Services

#### Celery Worker

The Celery worker service consumes tasks from background task queues. To establish the \`systemd\`
unit file for the Celery worker, copy the following into \`/etc/systemd/system/app-worker.service\`:

\`\`\`ini
[Service]
ExecStart=/opt/app/bin/app-server celery worker --loglevel INFO
\`\`\`

#### Migrating to Celery from RQ

Prior to migrating, stop the RQ worker service and disable its systemd unit. The Celery worker
replaces the RQ worker for background tasks.

#### Concurrent Celery and RQ Workers

If you must run the Celery and RQ workers concurrently, also run the RQ worker service next to the
Celery worker.
`;

Deno.test("a section whose heading the question names whole answers it, though the title holds one of its words", async () => {
  // With other pages of the same docs (Nautobot's, Apache-2.0), so the words weigh as they do.
  const nautobot = await evalPages("nautobot");
  const others = ["installation/index", "configuration/index", "administration/celery-queues"];
  const { db, app } = await docsWiki({
    ...Object.fromEntries(others.map((path) => [path, nautobot[path]!])),
    "installation/services": services,
  });
  await using _db = db;
  const q = "How do I run the Celery worker as a systemd service?";
  const [top] = await search(app, "docs", q);
  assert.match(top!.section ?? "", /> Celery Worker$/);
  const answer = await ask(app, "docs", q);
  assert.match(answer.citations[0]!.section ?? "", /> Celery Worker$/, answer.answer);
  assert.match(answer.answer, /app-server celery worker/);
});
