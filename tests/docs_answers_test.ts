import assert from "node:assert/strict";
import type { Answer } from "../src/ask/ask_schema.ts";
import { ask, docsWiki, evalPages, search } from "./docs_wiki.ts";
import { parses } from "../src/ask/question.ts";

// Answers from documentation-shaped pages (issue #28): reference sections headed by an option's
// name in inline code, tables of options, numbered runbooks, code blocks. Through REST, as an
// assistant asks.

/** NATS's operator docs as `eval/nats` keeps them. */
function natsPages(): Promise<Record<string, string>> {
  return evalPages("nats");
}

/** A page of NATS's operator docs (`natsPages`). */
async function natsPage(path: string): Promise<string> {
  return (await natsPages())[path]!;
}

/** A page's markdown from its blocks (headings, paragraphs), a blank line apart. */
const blocks = (...parts: string[]) => parts.join("\n\n");

/** `question` asked of a wiki holding a documentation set's pages (`evalPages`). */
async function askSet(set: Parameters<typeof evalPages>[0], question: string): Promise<Answer> {
  const { db, app } = await docsWiki(await evalPages(set));
  await using _db = db;
  return await ask(app, "docs", question);
}

/** `question` asked of a wiki holding `markdown` as `path`, beside a page on nothing. */
async function askPage(path: string, markdown: string, question: string): Promise<Answer> {
  const { db, app } = await docsWiki({ [path]: markdown, "other": "# Other\n\nNothing." });
  await using _db = db;
  return await ask(app, "docs", question);
}

const PING = "# Ping\n\nThe ping endpoint answers health checks.\n\n" +
  "## Configuration Options\n\n" +
  "### `terminatingStatusCode`\n\n" +
  "During the period in which Traefik is gracefully shutting down, the ping handler returns " +
  "a 503 status code by default. If terminatingStatusCode is set, that status code is returned " +
  "instead.\n\n" +
  "### `entryPoint`\n\nThe entry point the ping handler is served on.\n";

Deno.test("a heading made of inline code is found, cited and linked by its name", async () => {
  const { db, app } = await docsWiki({ "ping": PING, "other": "# Other\n\nNothing here." });
  await using _db = db;
  const found = await search(app, "docs", "terminatingStatusCode");
  assert.equal(found[0]!.page, "ping");
  assert.equal(found[0]!.section, "Ping > Configuration Options > `terminatingStatusCode`");
  assert.match(found[0]!.url, /\/ping#terminatingstatuscode$/);
  const answer = await ask(app, "docs", "What does terminatingStatusCode do?");
  const first = answer.citations[0]!;
  assert.equal(first.section, "Ping > Configuration Options > `terminatingStatusCode`");
  assert.match(first.url, /#terminatingstatuscode$/);
  // The rendered page has the same anchor.
  const page = await (await app.request("/w/docs/ping")).text();
  assert.match(page, /<h3 id="terminatingstatuscode">/);
  // The Ask page and the search page show the name as code, not between backticks.
  for (
    const url of [
      "/w/docs/-/ask?q=What+does+terminatingStatusCode+do%3F",
      "/w/docs/-/search?q=terminatingStatusCode",
    ]
  ) {
    const html = await (await app.request(url)).text();
    assert.match(html, /Configuration Options &gt; <code>terminatingStatusCode<\/code>/, url);
  }
});

Deno.test("a setting headed as MkDocs writes it is found, cited and linked by its name, not its markup", async () => {
  // MKDOCS_SETTINGS (below): `` #### [`PAPERLESS_DATE_ORDER=<format>`](#PAPERLESS_DATE_ORDER) {#…} ``
  // under `## Document Consumption {#consume_config}`.
  const { db, app } = await docsWiki({
    "configuration": MKDOCS_SETTINGS,
    "other": "# Other\n\nNo.",
  });
  await using _db = db;
  const section = "Configuration > Document Consumption > `PAPERLESS_DATE_ORDER=<format>`";
  const found = await search(app, "docs", "PAPERLESS_DATE_ORDER");
  assert.equal(found[0]!.section, section);
  assert.match(found[0]!.url, /\/configuration#PAPERLESS_DATE_ORDER$/);
  const answer = await ask(app, "docs", "In which order are day, month and year read by default?");
  const first = answer.citations[0]!;
  assert.equal(first.section, section);
  assert.match(first.url, /#PAPERLESS_DATE_ORDER$/);
  assert.doesNotMatch(answer.answer, /\{#|\]\(#/);
  // The rendered page has the site's anchors, and its own link to the heading lands.
  const page = await (await app.request("/w/docs/configuration")).text();
  assert.match(page, /<h4 id="PAPERLESS_DATE_ORDER"><a href="#PAPERLESS_DATE_ORDER">/);
  assert.match(page, /<h2 id="consume_config">Document Consumption<\/h2>/);
  assert.doesNotMatch(page, /\{#/);
});

Deno.test("ask reads the question once: parsed into one value, nothing else in src/ask tokenizes it", async () => {
  const { db, app } = await docsWiki({ "ping": PING });
  await using _db = db;
  const before = parses.count;
  await ask(app, "docs", "What status code does ping return while shutting down?");
  assert.equal(parses.count - before, 1, "one parse per ask");
  // Nothing in src/ask but question.ts reads the question's text into words; the readers of
  // its form are called from there alone.
  const dir = new URL("../src/ask/", import.meta.url);
  for await (const f of Deno.readDir(dir)) {
    if (!f.name.endsWith(".ts") || f.name.endsWith("_test.ts") || f.name === "question.ts") {
      continue;
    }
    const source = await Deno.readTextFile(new URL(f.name, dir));
    assert.doesNotMatch(
      source,
      /(?<!function )\b(?:tokenize|contentTerms|definitionTopic|asksForCode|asksForNumber)\(\s*question\b/,
      f.name,
    );
    assert.doesNotMatch(source, /import \{[^}]*\b(?:definitionTopic|asksForCode|asksForNumber)\b/);
  }
});

const ALLOWLIST =
  "# IPAllowList\n\nIPAllowList limits allowed requests based on the client IP.\n\n" +
  "## Configuration Options\n\n" +
  "| Field | Description | Default | Required |\n" +
  "|:------|:------------|:--------|:---------|\n" +
  '| <a id="opt-sourceRange" href="#opt-sourceRange" title="#opt-sourceRange">sourceRange</a> | ' +
  "List of allowed IPs (or ranges of allowed IPs by using CIDR notation). |  | Yes |\n" +
  '| <a id="opt-rejectStatusCode" href="#opt-rejectStatusCode" title="#opt-rejectStatusCode">' +
  "rejectStatusCode</a> | Defines the HTTP status code used for refused requests. | 403 | No |\n";

const DOCKER = "# Docker provider\n\nTraefik reads container labels from the Docker API.\n\n" +
  "## Docker API access\n\n" +
  "Mounting the Docker socket gives Traefik root access to the host. Instead of mounting " +
  "/var/run/docker.sock, expose the API through a socket proxy:\n\n" +
  '```yaml tab="Docker Compose"\nservices:\n  socket-proxy:\n    image: tecnativa/docker-socket-proxy\n' +
  "    environment:\n      CONTAINERS: 1\n  traefik:\n    image: traefik:v3.1\n```\n";

Deno.test("a table row is answered with its header, without its HTML", async () => {
  const { db, app } = await docsWiki({ "middlewares/ipallowlist": ALLOWLIST, "docker": DOCKER });
  await using _db = db;
  const answer = await ask(
    app,
    "docs",
    "What HTTP status does ipAllowList send to rejected clients by default?",
  );
  assert.match(
    answer.answer,
    /`rejectStatusCode` — Defines the HTTP status code used for refused requests\. Default: `403`\./,
  );
  assert.doesNotMatch(answer.answer, /<a |, 403,/);
  const row = answer.citations.find((c) => c.quote.includes("rejectStatusCode"))!;
  assert.equal(row.page, "middlewares/ipallowlist");
});

Deno.test("a compose file is answered as a fenced code block, never glued with ';'", async () => {
  const { db, app } = await docsWiki({ "middlewares/ipallowlist": ALLOWLIST, "docker": DOCKER });
  await using _db = db;
  const answer = await ask(
    app,
    "docs",
    "Security doesn't like us mounting /var/run/docker.sock — what alternatives?",
  );
  assert.match(answer.answer, /```yaml\nservices:\n {2}socket-proxy:\n/);
  assert.doesNotMatch(answer.answer, /services:; |tab="/);
  // The Ask page renders the answer's markdown: the compose file as a code block.
  const page = await (await app.request(
    `/w/docs/-/ask?q=${
      encodeURIComponent(
        "Security doesn't like us mounting /var/run/docker.sock — what alternatives?",
      )
    }`,
  )).text();
  // (highlighted: `<span class="hljs-attr">services:</span>`)
  assert.match(
    page,
    /<pre><code class="language-yaml">(<span class="hljs-attr">)?services:(<\/span>)?\n/,
  );
  assert.match(page, /<a href="#cite-1">\[1\]<\/a>/);
});

Deno.test("the listen port and the metrics port are not a conflict; two listen ports are", async () => {
  const { db, app } = await docsWiki({
    "Setup": "# Setup\n\nThe agent listens on port 7443 once installed.",
    "Configuration": "# Configuration\n\nThe agent listens on port 7443 by default. " +
      "The agent serves its metrics on port 9100 by default.",
  });
  await using _db = db;
  const answer = await ask(
    app,
    "docs",
    "Which port does the agent listen on and serve metrics on?",
  );
  assert.ok(answer.citations.length >= 2, JSON.stringify(answer.citations));
  assert.ok(!answer.frontier.some((f) => f.kind === "conflict"), JSON.stringify(answer.frontier));
});

const SERVER = "# Server\n\nThe server reads its settings from the environment.\n\n" +
  "## Environment variables\n\n" +
  "### FORGE_TIMEOUT\n\n- Name: `APP_FORGE_TIMEOUT`\n- Default: 5s\n\n" +
  "Specify timeout when fetching the configuration from the forge.\n\n" +
  "### FORGE_RETRY\n\n- Name: `APP_FORGE_RETRY`\n- Default: 3\n\n" +
  "Specify how many retries of fetching the configuration from a forge are done before we fail\n\n" +
  "## Caddy\n\nThis guide installs the server behind the Caddy web server. " +
  "This is an example caddyfile proxy configuration:\n\n" +
  "```caddy\nci.example.com {\n  reverse_proxy server:8000\n}\n```\n";

Deno.test("a short section is answered whole: a setting's default, the configuration a sentence announces", async () => {
  const { db, app } = await docsWiki({ "server": SERVER, "other": "# Other\n\nNothing here." });
  await using _db = db;
  // The description matched; the default stands in the section's list.
  const retry = await ask(
    app,
    "docs",
    "How often does the server retry fetching the configuration from the forge?",
  );
  assert.equal(retry.citations[0]!.section, "Server > Environment variables > FORGE_RETRY");
  assert.match(retry.answer, /^- Name: `APP_FORGE_RETRY`\.\n- Default: 3\.\n\nSpecify how many/);
  assert.match(retry.answer, /before we fail\.\n\[1\]$/, retry.answer);
  assert.equal(retry.citations.length, 1, retry.answer);
  // The sentence announcing the configuration brings it.
  const caddy = await ask(app, "docs", "How do I put the server behind Caddy?");
  assert.equal(caddy.citations[0]!.section, "Server > Caddy");
  assert.match(caddy.answer, /configuration:\n\n```caddy\nci\.example\.com \{/, caddy.answer);
  // One quote from the section's first unit to its last, verbatim.
  for (const c of [...retry.citations, ...caddy.citations]) {
    assert.equal(SERVER.slice(c.start, c.end), c.quote);
  }
});

// A long section is indexed in windows cut at blank lines: its YAML block is cut too.
const REMOTE = "# Configuration\n\nThe configuration file.\n\n## Remote write\n\n" +
  Array.from(
    { length: 6 },
    (_, i) =>
      `Remote write paragraph ${i} sends samples to a remote endpoint over HTTP, ` +
      "with retries and backoff, queueing samples in shards while the endpoint is slow.",
  ).join("\n\n") + "\n\n```yaml\n" +
  Array.from(
    { length: 30 },
    (_, i) => `# Setting number ${i} of the queue.\n[ queue_setting_${i}: <int> | default = ${i} ]`,
  ).join("\n\n") +
  "\n# How many samples go into each send request.\n" +
  "[ max_samples_per_send: <int> | default = 2000 ]\n```\n";

Deno.test("a line of a code block cut by a window is shown as code, with the comment above it", async () => {
  const { db, app } = await docsWiki({ "configuration": REMOTE });
  await using _db = db;
  const answer = await ask(app, "docs", "What is the default max samples per send?");
  // The comment lines right above a setting describe it: one unit with it.
  assert.match(
    answer.answer,
    /```yaml\n# How many samples go into each send request\.\n\[ max_samples_per_send: <int> \| default = 2000 \]\n```/,
    answer.answer,
  );
  // No line of the block outside a fence.
  assert.doesNotMatch(answer.answer.replace(/```yaml\n[^`]*\n```/g, ""), /\[ \w+: <int>/);
  for (const c of answer.citations) assert.equal(REMOTE.slice(c.start, c.end), c.quote);
  // A question the comment answers, not the setting's line: "sends … request" stands only in it.
  const what = await ask(
    app,
    "docs",
    "Which setting limits the samples that go into each request?",
  );
  assert.match(
    what.answer,
    /# How many samples go into each send request\.\n\[ max_samples_per_send/,
  );
});

// A reference page: each setting's section is headed by its name.
const SETTINGS = "# Settings\n\nEvery setting of the server.\n\n" +
  "## Databases\n\n" +
  "The server keeps its state in an embedded database unless otherwise configured. " +
  "Upgrades migrate the database automatically unless the release notes say otherwise.\n\n" +
  "## Environment variables\n\n" +
  "### LOG_STORE\n\n- Name: `APP_LOG_STORE`\n- Default: `database`\n\n" +
  "Where to keep step logs. Possible values:\n\n" +
  "- `database`: keeps the logs in the database\n- `file`: keeps the logs in files\n\n" +
  "### LOG_STORE_FILE_PATH\n\n- Name: `APP_LOG_STORE_FILE_PATH`\n- Default: none\n\n" +
  "The folder step logs are stored in when `APP_LOG_STORE` is `file`.\n\n" +
  "### FORGE_URL\n\n- Name: `APP_FORGE_URL`\n- Default: none\n\n" +
  "The address of a self-hosted forge.\n\n" +
  "## App settings\n\n" +
  "Register an app on the forge. Its callback URL is the server's address followed by " +
  "`/authorize`.\n";

Deno.test("a section headed by a setting's name answers a question naming its parts in order", async () => {
  const { db, app } = await docsWiki({ "settings": SETTINGS, "other": "# Other\n\nNothing." });
  await using _db = db;
  // "logs … stored" names LOG_STORE ("stored" and "store" are one word): its section, whole,
  // though "unless otherwise configured" matches the Databases paragraph word for word.
  const question = "Where are step logs stored unless configured otherwise?";
  const found = await search(app, "docs", question);
  assert.equal(found[0]!.section, "Settings > Environment variables > LOG_STORE");
  const logs = await ask(app, "docs", question);
  assert.equal(logs.citations[0]!.section, "Settings > Environment variables > LOG_STORE");
  assert.match(logs.answer, /Default: `?database/, logs.answer);
  // Parts out of order are not the setting's name: "callback URL … forge app" is not FORGE_URL.
  const callback = await ask(app, "docs", "What callback URL goes into the forge app?");
  assert.equal(callback.citations[0]!.section, "Settings > App settings", callback.answer);
});

// A Docusaurus page whose answer stands only in a callout.
const FORGE = "# Forge\n\nThe server supports the forge and its enterprise edition.\n\n" +
  "You get a client ID and a secret when you register an OAuth application.\n" +
  "Go to Settings, then Developer settings, then New OAuth2 app.\n\n" +
  ':::warning\nDo not register an "Integration app" instead of an OAuth2 app: the former ' +
  "will not work correctly, because its user tokens are not refreshed.\n:::\n\n" +
  "## App settings\n\n- Name: any name for your app\n";

Deno.test("a callout's text answers: found in its page, quoted as written", async () => {
  const { db, app } = await docsWiki({ "forge": FORGE, "other": "# Other\n\nNothing." });
  await using _db = db;
  // Search reads the callout as a blockquote ("> **Warning**"); the page has ":::warning".
  const answer = await ask(
    app,
    "docs",
    "Can I register an Integration app instead of an OAuth app?",
  );
  const first = answer.citations[0]!;
  assert.match(first.quote, /^Do not register an "Integration app" instead/, answer.answer);
  assert.equal(FORGE.slice(first.start, first.end), first.quote);
  assert.match(answer.answer, /will not work correctly/);
  assert.doesNotMatch(answer.answer, /:::|\*\*Warning\*\*|^>/m);
});

// A question whose answer's section never names part of what is asked: the cluster page's
// section on reaching steps by name, and the services page that names the database service.
const CLUSTER = "# Cluster backend\n\nThe cluster backend runs each step in its own pod.\n\n" +
  "## Tips\n\n### Reaching other steps\n\n" +
  "Every step of a run can reach the other steps by using the step name as the hostname, " +
  "so any port of another step is reached directly.\n\n" +
  "## Volumes\n\nEach run gets a temporary volume.\n";
const SERVICES = "# Services\n\nA pipeline can start services for its steps, such as a " +
  "database or a cache.\n\n" +
  "In the example below, the MySQL service is named database and is available at " +
  "database:3306.\n\n## Detached steps\n\nA step can also run detached.\n";

Deno.test("a part of the question its section never names is answered from the best other page", async () => {
  const { db, app } = await docsWiki({ "cluster": CLUSTER, "services": SERVICES });
  await using _db = db;
  const answer = await ask(
    app,
    "docs",
    "From a step, at what hostname and port do I reach another step's MySQL service named database?",
  );
  assert.equal(answer.citations[0]!.page, "cluster", answer.answer);
  assert.ok(answer.citations.some((c) => c.page === "services"), answer.answer);
  assert.match(answer.answer, /database:3306/);
});

// A two-part question ("the default limit and which flag") over a long configuration file
// whose section holds "limit" and "fail" in comment after comment, and a long flags table whose
// row holds the question's other words but never says "flag" (its header does): docsqa-dev's
// "loaded too many samples" question, in our own words. The section's comments filled the
// answer and the row was left out.
const GLOBAL_SETTINGS = [
  [
    "body_size_limit",
    "An uncompressed response body larger than this many bytes makes the scrape fail. 0 means no limit.",
  ],
  [
    "sample_limit",
    "Per-scrape limit on the number of scraped samples accepted. Above it the scrape fails. 0 means no limit.",
  ],
  [
    "label_limit",
    "Limit on the number of labels accepted per sample. Above it the scrape fails. 0 means no limit.",
  ],
  [
    "label_name_length_limit",
    "Limit on the length of each label name. Above it the scrape fails. 0 means no limit.",
  ],
  ...[
    "scrape_interval",
    "scrape_timeout",
    "evaluation_interval",
    "rule_query_offset",
    "external_labels",
    "query_log_file",
    "scrape_failure_log_file",
    "metric_name_validation_scheme",
    "scrape_protocols",
    "always_scrape_classic_histograms",
    "convert_classic_histograms",
    "honor_labels",
  ].map((
    name,
  ) => [
    name,
    `How the ${name.replaceAll("_", " ")} setting behaves for every job that does not set its own.`,
  ]),
];
const CONFIG_FILE =
  "# Configuration file\n\nThe global section holds the defaults of every job.\n\n" +
  "```yaml\nglobal:\n" +
  GLOBAL_SETTINGS.map(([name, comment]) => `  # ${comment}\n  [ ${name}: <value> | default = 0 ]\n`)
    .join("\n") +
  "```\n";
const FLAGS = [
  ["--config.file", "Configuration file path.", "`prometheus.yml`"],
  ["--web.listen-address", "Address to listen on for the UI and API.", "`0.0.0.0:9090`"],
  ["--web.read-timeout", "Maximum duration before timing out read of the request.", "`5m`"],
  ["--web.max-connections", "Maximum number of simultaneous connections.", "`512`"],
  ["--storage.tsdb.path", "Base path for metrics storage.", "`data/`"],
  ["--storage.tsdb.retention.time", "How long to retain samples in storage.", "`15d`"],
  ["--rules.alert.for-grace-period", "Minimum duration between alert and restored state.", "`10m`"],
  ["--query.lookback-delta", "The maximum lookback duration for retrieving metrics.", "`5m`"],
  ["--query.timeout", "Maximum time a query may take before being aborted.", "`2m`"],
  ["--query.max-concurrency", "Maximum number of queries executed concurrently.", "`20`"],
  [
    "--query.max-samples",
    "Maximum number of samples a single query can load into memory. Queries that try to load more samples than this fail.",
    "`50000000`",
  ],
  ["--log.level", "Only log messages with the given severity or above.", "`info`"],
];
const SERVER_FLAGS = "# Server\n\nThe server's command line.\n\n## Flags\n\n" +
  "| Flag | Description | Default |\n| --- | --- | --- |\n" +
  FLAGS.map(([flag, text, value]) => `| <code>${flag}</code> | ${text} | ${value} |\n`).join("");

Deno.test("another section holding what the first lacks keeps a place in an answer the first would fill", async () => {
  const { db, app } = await docsWiki({ "configuration": CONFIG_FILE, "server": SERVER_FLAGS });
  await using _db = db;
  const answer = await ask(
    app,
    "docs",
    "Queries fail saying they loaded too many samples. What's the default limit and which flag raises it?",
  );
  assert.ok(answer.citations.some((c) => c.page === "server"), answer.answer);
  assert.match(answer.answer, /--query\.max-samples/);
  assert.match(answer.answer, /50000000/);
});

// A setting and its TLS variant, each in its own short section: the variant's section holds
// "port", the base's "HTTP". The base's section joins as the part the first lacks, whole, so its
// default stands in the answer.
const LISTEN = "# Server\n\nThe server's settings.\n\n## Environment variables\n\n" +
  "### SERVER_ADDR\n\n- Name: `APP_SERVER_ADDR`\n- Default: `:8000`\n\n" +
  "Configures the HTTP listener, supports unix sockets via the unix:// prefix.\n\n" +
  "### SERVER_ADDR_TLS\n\n- Name: `APP_SERVER_ADDR_TLS`\n- Default: `:443`\n\n" +
  "Configures the port of the HTTPS listener when SSL is enabled: the server listens on this " +
  "port for HTTPS.\n\n" +
  "### SERVER_CERT\n\n- Name: `APP_SERVER_CERT`\n- Default: none\n\n" +
  "Path to an SSL certificate used by the server to accept HTTPS requests.\n";

Deno.test("the section that joins for the part the first lacks is shown whole when short", async () => {
  const { db, app } = await docsWiki({ "server": LISTEN, "other": "# Other\n\nNothing here." });
  await using _db = db;
  const answer = await ask(app, "docs", "What port does the server listen on for HTTP by default?");
  assert.ok(answer.citations.some((c) => c.section?.endsWith("> SERVER_ADDR")), answer.answer);
  assert.match(answer.answer, /:8000/);
  for (const c of answer.citations) {
    assert.equal(LISTEN.slice(c.start, c.end), c.quote);
  }
});

const RESTORE = "# Backup\n\nBacking up and restoring accounts.\n\n## Account restore\n\n" +
  "The restore command reads a backup folder and creates each stream and consumer it holds, " +
  "with their full message data and consumer state, on the cluster the context points at.\n\n" +
  "Available flags for the restore command:\n\n| Flag | Description |\n| :--- | :--- |\n" +
  "| `--cluster` | Target cluster for restored streams |\n" +
  "| `--tag` | Placement tag for restored streams |\n" +
  "| `--progress` | Shows a progress bar while the data is sent |\n" +
  "| `--timeout` | How long to wait for the cluster to answer each request |\n\n" +
  '{% hint style="warning" %}\n`account restore` will fail if a stream with the same name ' +
  "already exists. You must remove the existing stream before restoring from backup.\n" +
  "{% endhint %}\n\nA restore of a large account can take a while: the messages are sent " +
  "in batches, and the consumers are created once their streams hold every message again.\n";

Deno.test("a callout is one unit: what fails and what to do about it, both", async () => {
  const answer = await askPage(
    "backup",
    RESTORE,
    "Restoring the account fails because a stream of that name is already there. What now?",
  );
  const first = answer.citations[0]!;
  assert.match(first.quote, /^`account restore` will fail .* restoring from backup\.$/s);
  assert.equal(RESTORE.slice(first.start, first.end), first.quote);
  assert.match(answer.answer, /You must remove the existing stream/);
  assert.doesNotMatch(answer.answer, /\{%|endhint/);
});

const SIGNALS = "# Signals\n\nThe server responds to signals.\n\n## Command line\n\n" +
  "Send them with the kill command, or with the server's --signal flag.\n\n## Windows\n\n" +
  "See the Windows Service section for information on signaling the server on Windows.\n";
const WINDOWS = "# Windows Service\n\nThe server runs as a service on Windows hosts, " +
  "started by the service manager at boot.\n\n## Installing\n\nCreate the service with " +
  'sc.exe and start it:\n\n```\nsc.exe create wiki-server binPath= "C:\\wiki\\server.exe"\n' +
  "sc.exe start wiki-server\n```\n";

Deno.test("a sentence that points to another section is not the answer: the section it points to is", async () => {
  const { db, app } = await docsWiki({ "signals": SIGNALS, "windows": WINDOWS });
  await using _db = db;
  const answer = await ask(
    app,
    "docs",
    "How do we install the server as a service on our Windows hosts?",
  );
  assert.equal(answer.citations[0]!.page, "windows", answer.answer);
  assert.doesNotMatch(answer.answer, /See the Windows Service section/);
});

const STAPLING = "# Stapling\n\nThe server can staple certificate status to its handshakes.\n\n" +
  "## Modes\n\nBy default the server fetches staples only when the certificate asks for them, " +
  "and keeps serving while a staple cannot be fetched, which suits most deployments well.\n\n" +
  "There are other stapling modes that control whether stapling is enforced and whether the " +
  "server should shut down when its certificate is revoked:\n\n" +
  "| Mode | Description | Shuts down when revoked |\n| :--- | :--- | :--- |\n" +
  "| auto | Staples when the certificate has the must-staple flag | No |\n" +
  "| must | Staples when the certificate has the must-staple flag | Yes |\n" +
  "| always | Staples for all certificates | Yes |\n" +
  "| never | Never staples, even with the flag | No |\n\n" +
  "A mode is set in the server's TLS block, beside its certificate and key files, and takes " +
  "effect at the next reload of the configuration without dropping connections.\n";
/** The same section, long enough not to be answered whole: the announcing sentence brings it. */
const STAPLING_LONG = STAPLING.replace(
  "which suits most deployments well.",
  "which suits most deployments well. A staple is fetched from the responder named in the " +
    "certificate, cached on disk beside the server's other state, and refreshed halfway to " +
    "its expiry, so a responder that is down for a while is not noticed by the clients at " +
    "all. Each fetch is logged at the debug level with the responder's address, the status " +
    "it returned and how long the staple is valid, which helps when a responder misbehaves.",
);

Deno.test("a small table a sentence announces is answered whole, as a table", async () => {
  const { db, app } = await docsWiki({ "stapling": STAPLING_LONG, "other": "# Other\n\nNothing." });
  await using _db = db;
  const answer = await ask(
    app,
    "docs",
    "Which stapling mode makes the server shut down when the certificate is revoked?",
  );
  assert.match(answer.answer, /shut down when its certificate is revoked: \[1\]/);
  assert.match(answer.answer, /\| Mode \| Description \| Shuts down when revoked \|\n\| --- \|/);
  assert.match(answer.answer, /\| must \| .* \| Yes \|/);
  assert.match(answer.answer, /\| never \| .* \| No \|\n\n\[2\]/);
  const table = answer.citations[1]!;
  assert.equal(STAPLING_LONG.slice(table.start, table.end), table.quote);
  assert.match(table.quote, /^\| Mode .*\| never .*\| No \|$/s);
  // The app's Ask page shows the table's quote as its page does: a table.
  const page = await (await app.request(
    `/w/docs/-/ask?q=${encodeURIComponent("Which stapling mode makes the server shut down?")}`,
  )).text();
  assert.match(page, /<table>[\s\S]*<td>must<\/td>/);
  const sources = page.slice(page.indexOf('<ol class="citations">'));
  assert.match(sources, /<blockquote><table>\s*<thead>\s*<tr>\s*<th[^>]*>Mode<\/th>/);
});

Deno.test("a short section answered whole keeps its table a table", async () => {
  const answer = await askPage(
    "stapling",
    STAPLING,
    "Which stapling modes are there besides the default?",
  );
  assert.equal(answer.citations[0]!.page, "stapling", answer.answer);
  assert.match(answer.answer, /\| Mode \| Description \| Shuts down when revoked \|\n\| --- \|/);
  assert.doesNotMatch(answer.answer, /Must — /);
});

const LIMITS = "# Resource limits\n\nLimits for accounts.\n\n## Account limits\n\n" +
  "An account may use every resource the server has. The server has its own limits for " +
  "memory and disk, and an account without limits of its own can fill them.\n\n" +
  "Here the account would have access to all the resources, we can restrict it:\n\n" +
  "```\naccounts {\n  HR: {\n    storage { max_mem: 512M\n      max_file: 1G }\n  }\n}\n```\n\n" +
  "Now the account is limited in memory and in disk, each on its own.\n";

Deno.test("a question asking what something looks like is answered with the code a sentence announces", async () => {
  const answer = await askPage(
    "limits",
    LIMITS,
    "Our HR account should get at most 1G of disk. What does that account block look like?",
  );
  assert.match(answer.answer, /```\naccounts \{[\s\S]*max_file: 1G/, answer.answer);
});

const ENCRYPTION =
  "# Encryption at rest\n\nThe server can encrypt the messages it stores on disk " +
  "with a key it reads at start.\n\nEncryption at rest is supported since server version 2.3.0\n\n" +
  "The key is given in the configuration file or, better, in an environment variable.\n";

Deno.test("a sentence the page left without its full stop ends with one in the answer, its quote as written", async () => {
  const answer = await askPage(
    "encryption",
    ENCRYPTION,
    "Since which server version is encryption at rest supported?",
  );
  assert.match(answer.answer, /supported since server version 2\.3\.0\. \[1\]/, answer.answer);
  const first = answer.citations[0]!;
  assert.equal(first.quote, "Encryption at rest is supported since server version 2.3.0");
  assert.equal(ENCRYPTION.slice(first.start, first.end), first.quote);
});

const LOGGING =
  "# Logging\n\nThe server writes a log of what it does.\n\n## Command line options\n\n" +
  "The log is configured with flags.\n\n### Timestamp\n\n" +
  "If `-T false` then log entries are not timestamped. Default is true.\n\n" +
  "### Debug\n\nThe `-D` flag turns on debug output, which is verbose.\n";
const MONITORING = "# Monitoring\n\nThe server serves statistics over HTTP.\n\n## Endpoints\n\n" +
  "The `/varz` endpoint returns general information, such as the server's uptime.\n\n" +
  "## Enabling\n\nSet `http_port` to serve the endpoints; the server logs the address.\n";
const SERVICE = "# Service\n\nThe server runs under systemd as a service, which restarts it " +
  "when it stops.\n\n## Unit file\n\nThe unit file starts the server with its configuration.\n";

Deno.test("an answer from the section search ranks first holds few of a story's words, and is shown", async () => {
  const { db, app } = await docsWiki({
    "logging": LOGGING,
    "monitoring": MONITORING,
    "service": SERVICE,
  });
  await using _db = db;
  const question = "journald already stamps each line, so the timestamps in the server's own " +
    "log lines are duplicated. How do we drop them?";
  const answer = await ask(app, "docs", question);
  assert.match(answer.answer, /-T false/);
  assert.equal(answer.citations[0]!.section, "Logging > Command line options > Timestamp");
  // Few of the question's words: shown, but not `supported`.
  assert.equal(answer.coverage, "partial");
});

Deno.test("an answer shown because search and the picker agree is supported when the model is sure of it", async () => {
  const { db, app } = await docsWiki(await evalPages("paperless"));
  await using _db = db;
  // A story the docs do not tell ("someone", "forgets", "the next day") leaves the answer below
  // the coverage bar; the section search ranks first answers it, and the verdict rates it well
  // above the model's own bar. It was held to `partial` whatever its probability.
  const answer = await ask(
    app,
    "docs",
    "Quite often someone scans the odd pages and forgets the even ones until the next day. " +
      "How long does paperless hold on to that first half?",
  );
  assert.match(answer.answer, /30 minutes/, answer.answer);
  assert.match(answer.citations[0]!.section ?? "", /Things that could go wrong$/);
  assert.equal(answer.coverage, "supported", answer.answer);
});

Deno.test("an answer from the section search ranks first is shown when both agree on the amount asked", async () => {
  const { db, app } = await docsWiki(await evalPages("paperless"));
  await using _db = db;
  // The story ("by mistake last week", "sit", "gets rid of them for good") holds most of the
  // question's weighted words, and the section search ranks first never repeats them: its best
  // unit, "Defaults to 30 days", holds the question's amount and 0.197 of its words, under the
  // bar of an answer search agrees with, and the answer was "The wiki does not answer this".
  const answer = await ask(
    app,
    "docs",
    "Deleted a few scans by mistake last week. How long do they sit in the trash before " +
      "paperless gets rid of them for good?",
  );
  assert.match(answer.answer, /30 days/, answer.answer);
  assert.match(answer.citations[0]!.section ?? "", /PAPERLESS_EMPTY_TRASH_DELAY/);
  // Few of the question's words: shown, not `supported`.
  assert.equal(answer.coverage, "partial");
});

Deno.test("a setting the question names word for word comes first among its page's settings", async () => {
  const { db, app } = await docsWiki(await evalPages("paperless"));
  await using _db = db;
  // `PAPERLESS_OCR_LANGUAGES` ("Additional OCR languages to install", naming English and German
  // as the question's story does) ranked first; search's stems read it as the setting asked for.
  const question = "All our letters are German but OCR seems to read them as English. Which " +
    "setting picks the OCR language, and what is it if we never set it?";
  const top = (await search(app, "docs", question))[0]!;
  assert.equal(top.section, "Configuration > OCR settings > `PAPERLESS_OCR_LANGUAGE=<lang>`");
  const answer = await ask(app, "docs", question);
  assert.equal(answer.citations[0]!.section, top.section, answer.answer);
  assert.match(answer.answer, /Defaults to "eng"/, answer.answer);
});

Deno.test("a section that joins for a part of the question keeps its place after the first section's blocks", async () => {
  const { db, app } = await docsWiki(await evalPages("paperless"));
  await using _db = db;
  // Search ranks the migration section first; its sentences and the lists they announce filled
  // the four places, and the broker prefix's section, which joined holding "share" (a word of
  // the question the migration section lacks) and answers, was cut.
  const answer = await ask(
    app,
    "docs",
    "Two paperless installs share one Valkey server. How do we keep them from stepping on each " +
      "other's keys?",
  );
  assert.ok(
    answer.citations.some((c) => /PAPERLESS_REDIS_PREFIX/.test(c.section ?? "")),
    JSON.stringify(answer.citations.map((c) => c.section)),
  );
  assert.match(answer.answer, /PAPERLESS_REDIS_PREFIX/, answer.answer);
});

Deno.test("a page search ranks second whose sentence holds as much of the question joins the answer", async () => {
  const { db, app } = await docsWiki(await natsPages());
  await using _db = db;
  // The profiling port's section and the monitoring port's say the same words ("When you plan
  // to open your nats-server to the internet make sure to not expose the … port"); search ranks
  // profiling first, and only the rank prior chose it. The monitoring page, which answers
  // ("stats" is its endpoint), was left out.
  const answer = await ask(
    app,
    "docs",
    "Is the HTTP stats port protected by a login? We are about to open the server to the internet.",
  );
  assert.equal(answer.citations[0]!.page, "nats_admin/profiling", answer.answer);
  assert.ok(
    answer.citations.some((c) => c.page === "configuration/monitoring"),
    JSON.stringify(answer.citations.map((c) => c.page)),
  );
});

const LOCAL_RUNS = "# Local execution\n\nThe CLI runs pipelines on your machine.\n\n" +
  "## Try a workflow file\n\n" +
  "To try a workflow file locally before pushing it, hand it to the CLI:\n\n" +
  "```sh\nwoodpecker-cli exec .woodpecker.yaml\nwoodpecker-cli exec .woodpecker/\n```\n\n" +
  "The CLI reads the file as the server would. It clones nothing: the steps see your working " +
  "tree as it is. Secrets are not fetched from the server. Pass each one the step needs by " +
  "hand. Metadata such as the commit and the branch is made up from your checkout. Plugins run " +
  "as they would in a pipeline. Services start before the steps, as on an agent. Logs are " +
  "printed to the terminal, step by step, and nothing is sent to the server. The exit code is " +
  "the pipeline's: zero when every step passed.\n\n" +
  "## Backends\n\nThe CLI detects a backend on its own.\n";

Deno.test("a how-to answer whose sentence announces a block shows the block", async () => {
  const { db, app } = await docsWiki({
    "local": LOCAL_RUNS,
    "intro": "# Welcome\n\nPipelines run on agents that the server hands work to.\n",
  });
  await using _db = db;
  // The question names no code, and the announcing sentence's block was left out: the answer
  // ended in "…hand it to the CLI:" and showed neither command.
  const answer = await ask(app, "docs", "How do I try a workflow file locally before pushing it?");
  assert.equal(answer.citations[0]!.page, "local", answer.answer);
  assert.match(answer.answer, /woodpecker-cli exec \.woodpecker\.yaml/, answer.answer);
});

const REFERENCE = "# Configuration file\n\nThe server reads a YAML file.\n\n## `<exemplars>`\n\n" +
  "Note that exemplar storage must be enabled with a flag.\n\n```yaml\n" +
  "# The size of the circular buffer that stores exemplars for all series.\n" +
  "[ max_exemplars: <int> | default = 100000 ]\n```\n\n## `<storage>`\n\n" +
  "Settings of the local storage.\n";
const FEATURES = "# Feature flags\n\nFlags turn on features.\n\n## Exemplars storage\n\n" +
  "Exemplar storage keeps exemplars in memory in a fixed size circular buffer. An exemplar " +
  "with just a trace id uses roughly 100 bytes of memory in the in-memory exemplar storage.\n\n" +
  "## Memory snapshot\n\nThe server can write a snapshot of memory on shutdown.\n";

Deno.test("a short code block stating a setting's default answers a question asking how many", async () => {
  const { db, app } = await docsWiki({ "configuration": REFERENCE, "feature_flags": FEATURES });
  await using _db = db;
  const answer = await ask(
    app,
    "docs",
    "How many exemplars can the in-memory exemplar store hold by default?",
  );
  assert.match(answer.answer, /default = 100000/, answer.answer);
  assert.equal(answer.citations[0]!.page, "configuration");
});

const ERRORS = "# Query API\n\nThe query API answers over HTTP.\n\n## Responses\n\n" +
  "Every answer of the API is a JSON object with a status field. A successful request " +
  "returns a status code in the 2xx range, and its data field holds the result in the " +
  "shape the endpoint documents below.\n\n" +
  "Requests that the API handlers reject return an error object and one of these status " +
  "codes:\n\n" +
  "- `400 Bad Request` when a parameter is missing or malformed.\n" +
  "- `422 Unprocessable Entity` when an expression cannot be evaluated\n" +
  "  (see the expression guide).\n" +
  "- `503 Service Unavailable` when a query times out or is cancelled.\n\n" +
  "Other codes outside the 2xx range may come from a proxy in front of the API, before a " +
  "handler sees the request. Warnings that do not stop a request are returned in a warnings " +
  "array beside the data, and clients should show them to whoever sent the query.\n";

Deno.test("a short list a sentence announces is answered whole, as a list, its quote shown as a list", async () => {
  const { db, app } = await docsWiki({ "query-api": ERRORS, "other": "# Other\n\nNothing." });
  await using _db = db;
  const question = "What status codes does the API return for a bad parameter, an expression " +
    "that cannot be evaluated, and a timeout?";
  const answer = await ask(app, "docs", question);
  assert.match(answer.answer, /one of these status codes: \[\d\]\n\n- `400 Bad Request`/);
  assert.match(answer.answer, /\n- `422 Unprocessable Entity` .* \(see the expression guide\)\.\n/);
  assert.match(answer.answer, /\n- `503 Service Unavailable` when a query times out/);
  const list = answer.citations.find((c) => c.quote.startsWith("- `400"))!;
  assert.equal(ERRORS.slice(list.start, list.end), list.quote);
  assert.match(list.quote, /cancelled\.$/);
  const page = await (await app.request(`/w/docs/-/ask?q=${encodeURIComponent(question)}`))
    .text();
  // The list's quote is shown as its page shows it: a list, an item a line.
  const sources = page.slice(page.indexOf('<ol class="citations">'));
  assert.match(sources, /<blockquote><ul>\s*<li><code>400 Bad Request<\/code>/);
});

// The fixtures below are shaped after passages of the NATS server and Prometheus documentation
// (both Apache-2.0), reworded and cut down.
const STARTUP = "# Windows Service\n\nThe server can run as a Windows service.\n\n" +
  "## Service settings\n\n### `NATS_STARTUP_DELAY` environment variable\n\n" +
  "The service manager waits for the server to signal that it has started. By default the " +
  "server allows itself up to 10 seconds to send this signal. This adjustment can be " +
  "necessary when the server takes longer than 10 seconds to recover its stream state and " +
  "connect to its peers. If the server is not ready after this time, the service manager " +
  "marks it as failed to start. To test a longer startup, place the storage on a slow " +
  "network device or use a very large stream.\n\n### Log file\n\n" +
  "The service writes its log to the file named by the log option.\n";

Deno.test("a section headed by a setting's name leads its answer with that name", async () => {
  const { db, app } = await docsWiki({ "windows": STARTUP, "other": "# Other\n\nNothing." });
  await using _db = db;
  const answer = await ask(
    app,
    "docs",
    "The service manager marks the server as failed to start because recovery of the stream " +
      "state takes a while. How do we give it longer?",
  );
  const first = answer.citations[0]!;
  assert.equal(
    first.section,
    "Windows Service > Service settings > `NATS_STARTUP_DELAY` environment variable",
  );
  // The sentences never say the setting's name; the answer does, from the heading.
  assert.match(answer.answer, /^`NATS_STARTUP_DELAY` environment variable — /, answer.answer);
  // The quote stays the page's own text.
  assert.doesNotMatch(first.quote, /NATS_STARTUP_DELAY/);
  // A question that names the setting gets no label: it knows the name.
  const named = await ask(app, "docs", "How long does NATS_STARTUP_DELAY wait by default?");
  assert.doesNotMatch(named.answer, /^`NATS_STARTUP_DELAY`/, named.answer);
});

// Shaped after paperless-ngx's configuration page (GPL-3.0; MkDocs' attribute lists and
// definition lists), reworded and cut down.
const MKDOCS_SETTINGS = "# Configuration\n\nSettings are environment variables.\n\n" +
  "## Document Consumption {#consume_config}\n\n" +
  "#### [`PAPERLESS_IGNORE_DATES=<string>`](#PAPERLESS_IGNORE_DATES) {#PAPERLESS_IGNORE_DATES}\n\n" +
  ": A comma separated list of dates the date parser skips. This helps with dates such as a " +
  "date of birth, which appear in many letters but are never the date a letter was written.\n\n" +
  "    Defaults to an empty string.\n\n" +
  "#### [`PAPERLESS_DATE_ORDER=<format>`](#PAPERLESS_DATE_ORDER) {#PAPERLESS_DATE_ORDER}\n\n" +
  ": The order of day, month and year in the text of the documents.\n\n" +
  "    Defaults to DMY.\n";

Deno.test("a setting's heading written as a self-link with an attribute list leads its answer with the setting's name", async () => {
  const { db, app } = await docsWiki({ "configuration": MKDOCS_SETTINGS });
  await using _db = db;
  const birthday = "My date of birth is on every letter and keeps becoming the letter's date. " +
    "Can the parser skip particular dates?";
  const answer = await ask(app, "docs", birthday);
  // Cited by the heading the page shows (the attribute list and the link are markup).
  assert.equal(
    answer.citations[0]!.section,
    "Configuration > Document Consumption > `PAPERLESS_IGNORE_DATES=<string>`",
  );
  // The section's text never says the setting's name; the answer does, as the page shows it.
  assert.match(answer.answer, /^`PAPERLESS_IGNORE_DATES=<string>` — /, answer.answer);
  // A question that names the setting gets no label.
  const named = await ask(app, "docs", "Which dates does PAPERLESS_IGNORE_DATES skip by default?");
  assert.doesNotMatch(named.answer, /^`PAPERLESS_IGNORE_DATES/, named.answer);
});

Deno.test("a line of markup alone in a shown paragraph leaves no stray full stop or space in the answer", async () => {
  const page = "# Configuration\n\n## Hosting\n\n#### `PAPERLESS_PORT=<port>`\n\n" +
    ": The port number the webserver will listen on inside the container.\n\n" +
    "    Don't change this when using Docker.\n\n    Defaults to 8000.\n\n    !!! note\n\n" +
    "        This option may also be set with `GRANIAN_PORT`.\n";
  const { db, app } = await docsWiki({ "configuration": page });
  await using _db = db;
  const answer = await ask(app, "docs", "Which port does the web server listen on by default?");
  assert.match(answer.answer, /8000/, answer.answer);
  assert.doesNotMatch(answer.answer, /\.\s+\./, answer.answer);
  // Nor a place of its own: "Defaults to 8000.  This option…" read with two spaces.
  assert.doesNotMatch(answer.answer, /\S {2,}\S/, answer.answer);
});

Deno.test("a definition list's marker is not shown in the answer", async () => {
  const answer = await askPage(
    "configuration",
    MKDOCS_SETTINGS,
    "Our letters write the day before the month. In which order does the parser read the day, " +
      "month and year?",
  );
  assert.match(answer.answer, /The order of day, month and year/, answer.answer);
  // MkDocs' ": " under the term is the format's: "`PAPERLESS_DATE_ORDER=<format>` — : The order…"
  assert.doesNotMatch(answer.answer, /(^|\n|— ):/, answer.answer);
  // The quote stays the page's own text, marker and all.
  assert.match(answer.citations[0]!.quote, /^: The order/);
});

const QUORUM = "# JetStream Clustering\n\nJetStream runs on a cluster of servers.\n\n" +
  "## The quorum\n\nA quorum is half the cluster size plus one. So for a cluster size of 3, " +
  "you need at least two JetStream servers available to store new messages.\n\n" +
  "## Configuration\n\nEach server names its peers in its routes.\n";
const WORKFLOW = "# CI workflows\n\nA workflow creates the streams.\n\n```yaml\non: push\njobs:\n" +
  "  create_streams:\n    runs-on: ubuntu-latest\n    steps:\n" +
  "      - name: three servers\n        uses: example/jetstream-action@main\n" +
  "        with:\n          servers: three\n          messages: new\n" +
  "          stored: still\n          up: true\n```\n\n## Secrets\n\n" +
  "The workflow reads its credentials from secrets.\n";

Deno.test("'run' in a question's story does not ask for code: a workflow file is not the amount asked", async () => {
  const { db, app } = await docsWiki({ "clustering": QUORUM, "ci": WORKFLOW });
  await using _db = db;
  const answer = await ask(
    app,
    "docs",
    "We run three JetStream servers. How many have to be up for new messages to still be stored?",
  );
  assert.match(answer.answer, /at least two/, answer.answer);
  assert.equal(answer.citations[0]!.page, "clustering", answer.answer);
  assert.doesNotMatch(answer.answer, /```/, answer.answer);
  // Asked as the verb of the question, "run" still asks for the command.
  const run = await ask(app, "docs", "How do I run the workflow that creates the streams?");
  assert.match(run.answer, /```yaml/, run.answer);
});

const ADMIN_API = "# HTTP API\n\nThe API answers under `/api/v1`.\n\n## TSDB Admin APIs\n\n" +
  "These APIs expose database functions for the advanced user.\n\n### Snapshot\n\n" +
  "Snapshot creates a snapshot of all current data under the TSDB's data directory and " +
  "returns the directory as response. It will optionally skip snapshotting data that is only " +
  "present in the head block, and which has not yet been compacted to disk.\n\n" +
  "```\nPOST /api/v1/admin/tsdb/snapshot\nPUT /api/v1/admin/tsdb/snapshot\n```\n\n" +
  "URL query parameters:\n\n- `skip_head=<bool>`: Skip data present in the head block.\n\n" +
  "The snapshot is written next to the blocks it copies. Its name holds the time it was " +
  "taken and a random suffix. Old snapshots are never removed by the server. Remove them " +
  "yourself when they are no longer needed. A snapshot takes little space at first, as its " +
  "files are hard links to the blocks.\n\n### Delete Series\n\n" +
  "DeleteSeries deletes data for a selection of series in a time range.\n";

Deno.test("a question asking how to do something is shown the code block right after the sentence that answers it", async () => {
  const { db, app } = await docsWiki({ "api": ADMIN_API, "other": "# Other\n\nNothing." });
  await using _db = db;
  const answer = await ask(
    app,
    "docs",
    "How do I take a snapshot of the TSDB through the HTTP API?",
  );
  assert.equal(answer.citations[0]!.section, "HTTP API > TSDB Admin APIs > Snapshot");
  assert.match(answer.answer, /```\nPOST \/api\/v1\/admin\/tsdb\/snapshot/, answer.answer);
  // Asked what it does, not how: the sentence alone.
  const what = await ask(app, "docs", "What does a snapshot of the TSDB return as its response?");
  assert.doesNotMatch(what.answer, /```/, what.answer);
});

const VARIABLES = "# Configuration\n\nThe server reads one configuration file.\n\n" +
  "## Variables\n\nServer configurations can specify variables.\n\n**Variables syntax:**\n\n" +
  "* Are block-scoped.\n* Variables MUST be used to be recognized as such. The config parser " +
  "will tell an `unknown field` from a variable by finding a reference to the variable.\n" +
  "* Variables that are not defined are resolved from environment variables.\n\n" +
  "**Resolution sequence:**\n\n* Look for the variable in the same scope.\n" +
  "* Look for the variable in the parent scopes.\n* Look for an environment variable.\n" +
  "* If not found, stop server startup with an error.\n\n## Includes\n\n" +
  "A configuration file can include another one.\n";

Deno.test("a list item of several sentences is one unit: its other sentences come with the one that matched", async () => {
  const answer = await askPage(
    "configuration",
    VARIABLES,
    "Why does the config parser report an unknown field for a variable we defined?",
  );
  assert.match(
    answer.answer,
    /Variables MUST be used to be recognized as such\. The config parser/,
  );
  const cited = answer.citations.find((c) => c.quote.includes("The config parser"))!;
  assert.match(cited.quote, /^\* Variables MUST be used/);
});

const STABILITY =
  "# API Stability\n\nThe server promises API stability within a major version.\n\n" +
  "Things considered stable for 3.x:\n\n* The query language and data model\n" +
  "* Alerting and recording rules\n* Agent mode\n\nThings considered unstable for 3.x:\n\n" +
  "* Any feature listed as experimental\n* Server-side HTTPS and basic authentication\n" +
  "* Service discovery integrations\n\nAs long as you are not using any features marked as " +
  "experimental, upgrades within a major version can usually be performed without any " +
  "operational adjustments.\n\n## Deprecations\n\nFeatures are deprecated a release ahead.\n";

Deno.test("a list item answering alone comes with the sentence that leads its list", async () => {
  const answer = await askPage(
    "stability",
    STABILITY,
    "Is server-side HTTPS and basic authentication covered by the 3.x stability promise?",
  );
  assert.match(
    answer.answer,
    /^Things considered unstable for 3\.x: \[1\] Server-side HTTPS and basic authentication/,
    answer.answer,
  );
  assert.equal(answer.citations[0]!.quote, "Things considered unstable for 3.x:");
});

const PROMTOOL = "# promtool\n\nTooling for the monitoring server.\n\n## Commands\n\n" +
  "### `promtool check metrics`\n\nPass metrics over stdin to check them for consistency.\n\n" +
  "#### Flags\n\n| Flag | Description | Default |\n| --- | --- | --- |\n" +
  "| `--extended` | Print extended information related to the cardinality of the metrics. | |\n" +
  "| `--lint` | Linting checks to apply for metrics. Use `--lint=none` to disable linting. | `all` |\n\n" +
  "### `promtool check rules`\n\nCheck if the rule files are valid or not.\n\n#### Flags\n\n" +
  "| Flag | Description | Default |\n| --- | --- | --- |\n" +
  "| `--duplicate-rules` | Report duplicate rules. | `false` |\n";

Deno.test("a part under a name, headed by a word ('Flags'), leads its answer with both", async () => {
  const answer = await askPage("promtool", PROMTOOL, "Which flag disables linting of the metrics?");
  assert.equal(
    answer.citations[0]!.section,
    "promtool > Commands > `promtool check metrics` > Flags",
    answer.answer,
  );
  assert.match(answer.answer, /^`promtool check metrics`, Flags:\n\n/, answer.answer);
});

Deno.test("a frontier note names the question's missing subject words, not the words it is asked with", async () => {
  const alerts = "# Alerting rules\n\n## Keeping alerts firing\n\n" +
    "The optional `keep_firing_for` clause keeps an alert firing for the given duration after " +
    "its condition was last met. This prevents flapping alerts.\n";
  const answer = await askPage(
    "alerting",
    alerts,
    "How do I make an alert stay firing after the condition clears, so it doesn't flap?",
  );
  assert.match(answer.answer, /keep_firing_for/);
  const uncovered = answer.frontier.find((f) => f.kind === "uncovered")?.note ?? "";
  // "flap" meets "flapping", "doesn" is half a contraction, "make" is how the question is asked.
  assert.doesNotMatch(uncovered, /"flap"|"doesn"|"make"/, uncovered);
  assert.match(uncovered, /"stay"/, "a subject word no passage holds is still named");
});

const ANTI_AFFINITY = "# Anti Affinity\n\n## Background\n\n" +
  "A rollout can inject anti-affinity into the ReplicaSet. This prevents new pods from running " +
  "on nodes which have the previous version's pods.\n\n" +
  "## Enabling Anti-Affinity in Rollouts\n\n" +
  "Users have a choice between these scheduling rules: `RequiredDuringScheduling` and " +
  "`PreferredDuringScheduling`.\n\n" +
  "`RequiredDuringScheduling` requires a new version's pods to be on a separate node than the " +
  "previous versions. If this is not possible, the new version's pods will not be scheduled. " +
  "The rule is injected into the ReplicaSet's affinity. Pre-existing affinity rules are kept. " +
  "The scheduler reads the rule when a pod is created. Pods that run already stay where they " +
  "are.\n\n" +
  "Unlike the Required strategy, `PreferredDuringScheduling` does not force a new version's " +
  "pods to be on a separate node than the previous versions. The scheduler attempts to place " +
  "the new version's pods on separate node(s). The `Weight` is used to create a priority order " +
  "for preferred anti-affinity rules.\n\n" +
  "```yaml\nstrategy:\n  canary:\n    antiAffinity:\n      preferredDuringScheduling:\n" +
  "        weight: 1 # Between 1 - 100\n```\n\n" +
  "The main downside to this approach is that deployments can take longer because new nodes are " +
  "more likely to be created in order to schedule pods with respect to anti-affinity rules. " +
  "This delay most frequently occurs when a rollout has its own dedicated instance group, since " +
  "new nodes are more likely to be created to honor anti-affinity rules.\n";

Deno.test("an answer keeps the sentence that says what happens otherwise ('If this is not possible, …')", async () => {
  const { db, app } = await docsWiki({
    "anti-affinity": ANTI_AFFINITY,
    "other": "# Other\n\n## Nodes\n\nNodes are machines.\n",
  });
  await using _db = db;
  const answer = await ask(
    app,
    "docs",
    "With the required anti-affinity rule, what happens when there's no separate node for the new pods?",
  );
  assert.match(answer.answer, /requires a new version's pods to be on a separate node/);
  assert.match(
    answer.answer,
    /If this is not possible, the new version's pods will not be scheduled/,
  );
  // Right after the sentence it qualifies (in its quote or the one before), cut from the page.
  const i = answer.citations.findIndex((c) => c.quote.includes("If this is not possible"));
  assert.ok(i >= 0, "the condition is cited");
  const before = answer.citations[i]!.quote.split("If this is not possible")[0]!;
  assert.match(
    /requires a new version's pods/.test(before) ? before : answer.citations[i - 1]?.quote ?? "",
    /requires a new version's pods/,
  );
});

Deno.test("half of a contraction is not a word of the question ('We'd', 'I'm')", async () => {
  const bluegreen = "# BlueGreen\n\n## previewReplicaCount\n\n" +
    "The PreviewReplicaCount field sets the number of replicas the new version runs before it " +
    "is promoted. If omitted, the preview stack is scaled to 100% of the replicas.\n";
  const answer = await askPage(
    "bluegreen",
    bluegreen,
    "We'd like the preview stack to run few replicas while I'm testing. Is that possible?",
  );
  assert.match(answer.answer, /PreviewReplicaCount/);
  const uncovered = answer.frontier.find((f) => f.kind === "uncovered")?.note ?? "";
  assert.doesNotMatch(uncovered, /"d"|"m"/, uncovered);
});

const WEB_METRICS = "# Web Metrics\n\nA web metric sends an HTTP request to an endpoint of some " +
  "external service to obtain the measurement.\n\n## Optional web methods\n\n" +
  "It is possible to use a POST or PUT request, by specifying the `method` and either `body` " +
  "or `jsonBody` fields.\n\n" +
  "```yaml\n  metrics:\n  - name: webmetric\n    successCondition: result == true\n" +
  "    provider:\n      web:\n        method: POST # valid values are GET|POST|PUT\n" +
  '        url: "http://my-server.com/api/v1/measurement"\n' +
  "        timeoutSeconds: 20 # defaults to 10 seconds\n        headers:\n" +
  "          - key: Content-Type\n            value: application/json\n" +
  '        body: "string value"\n```\n\n' +
  "```yaml\n  metrics:\n  - name: webmetric\n    provider:\n      web:\n        method: PUT\n" +
  '        url: "http://my-server.com/api/v1/measurement"\n' +
  "        timeoutSeconds: 20 # defaults to 10 seconds\n        jsonBody:\n          key1: value_1\n" +
  '        jsonPath: "{$.data.ok}"\n```\n\n' +
  "Setting a `body` or `jsonBody` field for a `GET` request will result in an error.\n";

Deno.test("a default stated in a comment of a long example is an answer to 'how long', shown once", async () => {
  const { db, app } = await docsWiki({ "analysis/web": WEB_METRICS, "other": "# Other\n\nNo." });
  await using _db = db;
  const answer = await ask(
    app,
    "docs",
    "How long does a web metric wait for the endpoint to answer if no timeout is set?",
  );
  assert.match(answer.answer, /```yaml\n\s*timeoutSeconds: 20 # defaults to 10 seconds\n```/);
  assert.equal(answer.answer.match(/defaults to 10 seconds/g)?.length, 1, answer.answer);
});

Deno.test("a section named after a name the question holds answers it only about what it stands under", async () => {
  const analysis =
    "# Analysis & Progressive Delivery\n\nAnalysis drives progressive delivery.\n\n" +
    "## Handling Metric Results\n\n### Empty array\n\n#### Prometheus\n\n" +
    "Metric providers can sometimes return empty array, e.g., no data returned from prometheus " +
    "query.\n\n#### Datadog\n\nDatadog queries can return empty results.\n";
  const metrics = "# Controller Metrics\n\nThe Argo Rollouts controller is already instrumented " +
    "with Prometheus metrics available at `/metrics` in port 8090.\n\n" +
    "## Installing and configuring Prometheus\n\nYou need Prometheus installed in your cluster.\n";
  const { db, app } = await docsWiki({
    "features/analysis": analysis,
    "controller-metrics": metrics,
  });
  await using _db = db;
  const answer = await ask(
    app,
    "docs",
    "On which port does the controller expose its Prometheus metrics?",
  );
  assert.equal(answer.citations[0]!.page, "controller-metrics", answer.answer);
  assert.match(answer.answer, /^The Argo Rollouts controller is already instrumented .* port 8090/);
});

Deno.test("a heading of capitalised words joined by hyphens ('Blue-Green') is not a setting's name", async () => {
  const concepts = "# Concepts\n\nThe concepts of progressive delivery.\n\n" +
    "## Deployment Strategies\n\n### Blue-Green\n\n" +
    "A Blue-Green deployment has both the new and old version of the application deployed at " +
    "the same time. During this time, only the old version receives production traffic.\n\n" +
    "### Canary\n\nA Canary deployment exposes a subset of users to the new version.\n";
  const aborted = "# Scaledown New Replicaset on Aborted Rollout\n\n" +
    "Upon an aborted update, we may scale down the new replicaset for all strategies. " +
    "`abortScaleDownDelaySeconds = nil` is the default, which means the new replicaset is " +
    "scaled down in 30 seconds on abort by default.\n\n## Notes\n\nIt applies since v1.1.\n";
  const { db, app } = await docsWiki({ "concepts": concepts, "scaledown-aborted-rs": aborted });
  await using _db = db;
  const answer = await ask(
    app,
    "docs",
    "After an aborted blue-green update, how long until the new ReplicaSet is scaled down, by default?",
  );
  assert.equal(answer.citations[0]!.page, "scaledown-aborted-rs", answer.answer);
  assert.match(answer.answer, /30 seconds on abort/);
});

Deno.test("a server's log is no answer to how to do something; 'three' meets '3'", async () => {
  // NATS's clustering page (eval/nats, Apache-2.0): its three-server example shows each
  // server's command and then the log it printed.
  const clustering = await natsPage("configuration/clustering");
  assert.match(clustering, /\[INF\] Listening for route connections/);
  const { db, app } = await docsWiki({ "clustering": clustering, "other": "# Other\n\nNothing." });
  await using _db = db;
  const answer = await ask(app, "docs", "How do I set up a cluster of three servers?");
  assert.doesNotMatch(answer.answer, /\[INF\]/, answer.answer);
  assert.match(answer.answer, /cluster of 3 servers/, answer.answer);
  assert.match(answer.answer, /nats-server -p 4222 -cluster/, answer.answer);
  // Asked what the server logs, the log is what answers.
  const logged = await ask(app, "docs", "What does the server log once a route is connected?");
  assert.match(logged.answer, /\[INF\]/, logged.answer);
});

Deno.test("'set up' is not met by 'Setting' where the docs write 'setup': the cluster question over all of NATS's docs", async () => {
  // Over the whole set search ranks the JetStream clustering section and the three-server
  // example first; a row of the configuration page's "JetStream Server settings" table
  // ("Setting `unique_tag=az` … all three availability zones … nodes in a cluster") holds every
  // word of the question and opened the answer, with three more rows of that table.
  const { db, app } = await docsWiki(await natsPages());
  await using _db = db;
  const answer = await ask(app, "docs", "How do I set up a cluster of three servers?");
  assert.ok(
    answer.citations.every((c) => c.page.startsWith("configuration/clustering")),
    answer.answer,
  );
  assert.doesNotMatch(answer.answer, /unique_tag/, answer.answer);
  assert.match(answer.answer, /nats-server -p 4222 -cluster/, answer.answer);
  // A question whose verb has no particle still meets "Setting".
  const set = await ask(
    app,
    "docs",
    "Which setting makes the server use three availability zones?",
  );
  assert.match(set.answer, /unique_tag/, set.answer);
});

Deno.test("a row keeps the words between its code spans when a link stands among them", async () => {
  // NATS's configuration page (eval/nats, Apache-2.0): the `max_payload` row links to
  // "chunking" between two code spans; read as one span, its words from "Maximum" to the link
  // were dropped, and the `max_pending` row above it opened the answer.
  const configuration = await natsPage("configuration");
  const { db, app } = await docsWiki({ configuration, "other": "# Other\n\nNothing." });
  await using _db = db;
  const answer = await ask(app, "docs", "What is the default maximum payload size?");
  assert.match(answer.citations[0]!.quote, /^\| `max_payload` +\| Maximum number of bytes/);
  assert.match(answer.answer, /^`max_payload` — Maximum number of bytes in a message payload/);
});

Deno.test("a how-to answer's lead goes on into the subsection right under it, with its command", async () => {
  // NATS's running page (eval/nats, Apache-2.0): "## JetStream" holds one sentence, then
  // "### Command Line" says how, with the command on a line of its own.
  const running = await natsPage("running");
  const { db, app } = await docsWiki({ running, "other": "# Other\n\nNothing." });
  await using _db = db;
  const answer = await ask(app, "docs", "How do I enable JetStream?");
  assert.match(answer.answer, /by specifying the `-js` flag/, answer.answer);
  assert.match(answer.answer, /`\$ nats-server -js`(?!\.)/, answer.answer);
  const sub = answer.citations.find((c) => c.section === "Running > JetStream > Command Line");
  assert.ok(sub, JSON.stringify(answer.citations.map((c) => c.section)));
  assert.match(sub.url, /\/running#command-line$/);
  // A question that asks no how keeps to the lead.
  const what = await ask(app, "docs", "On how many servers must JetStream be enabled?");
  assert.doesNotMatch(what.answer, /-js/, what.answer);
});

Deno.test("a long bulleted list that is all its section holds is a reference: the item asked for, not all of it", async () => {
  // Argo Rollouts' kubectl plugin page (eval/rollouts): "## Available Commands" is seventeen
  // "[rollouts …](…) - …" items.
  const page = "generated/kubectl-argo-rollouts/kubectl-argo-rollouts";
  const plugin = (await evalPages("rollouts"))[page]!;
  const { db, app } = await docsWiki({ [page]: plugin, "other": "# Other\n\nNothing." });
  await using _db = db;
  const answer = await ask(app, "docs", "How do I abort a rollout?");
  assert.match(answer.answer, /abort - Abort a rollout/i, answer.answer);
  assert.doesNotMatch(answer.answer, /completion/, answer.answer);
});

Deno.test("a how-to answer whose picks show no code shows its section's example", async () => {
  // NATS's logging page (eval/nats): under "Log Rotation" every sentence holds the question's
  // words by its heading, and the answer was four sentences about a logrotate file it did not
  // show ("The rest of the file specifies that the logs will rotate daily …").
  const logging = await natsPage("configuration/logging");
  const { db, app } = await docsWiki({ logging, "other": "# Other\n\nNothing." });
  await using _db = db;
  const answer = await ask(app, "docs", "How do I rotate the log file?");
  assert.match(answer.answer, /configure `logrotate` with:/, answer.answer);
  assert.match(answer.answer, /```\n\/path\/to\/nats-server\.log \{\n {4}daily\n/, answer.answer);
  assert.doesNotMatch(answer.answer, /The rest of the file/, answer.answer);
});

Deno.test("two of the question's words a name joins, in either order, are in it: 'look … back' in 'lookback'", async () => {
  const rate = "# Functions\n\n## `irate()`\n\n" +
    "The following example returns the per-second rate of requests looking up to 5 minutes back " +
    "for the two most recent data points of each series.\n\n## `delta()`\n\nThe difference.\n";
  const basics = "# Querying basics\n\n## Staleness\n\n" +
    "The lookback period is 5 minutes by default, but can be set with the " +
    "`--query.lookback-delta` flag. A series with no sample in it is stale.\n\n" +
    "## Operators\n\nOperators combine series.\n";
  const { db, app } = await docsWiki({ "querying/functions": rate, "querying/basics": basics });
  await using _db = db;
  const answer = await ask(
    app,
    "docs",
    "How far back does the query look for the latest sample of a series, and can that window be changed?",
  );
  assert.equal(answer.citations[0]!.section, "Querying basics > Staleness", answer.answer);
  assert.match(answer.answer, /--query\.lookback-delta/, answer.answer);
});

Deno.test("a code block indented under a list item is code, not a line of prose", async () => {
  const slack = "# Slack\n\n## Configuration\n\n" +
    "1. Store the OAuth access token in the `argo-rollouts-notification-secret` secret.\n" +
    "1. Annotation with more than one trigger, with multiple destinations and recipients:\n\n" +
    "    ```yaml\n      apiVersion: argoproj.io/v1alpha1\n      kind: Rollout\n      metadata:\n" +
    "        annotations:\n          notifications.argoproj.io/subscriptions: |\n" +
    "            - trigger: [on-rollout-aborted]\n              destinations:\n" +
    "                - service: slack\n                  recipients: [my-channel-21]\n    ```\n\n" +
    "## Templates\n\nNotification templates can be customized.\n";
  const answer = await askPage(
    "slack",
    slack,
    "What does the annotation look like to send several triggers to multiple destinations?",
  );
  assert.match(answer.answer, /```yaml\n {2}apiVersion: argoproj\.io\/v1alpha1\n/, answer.answer);
  assert.doesNotMatch(answer.answer, /yaml apiVersion/, answer.answer);
});

const QUEUE = "# Task queue\n\nThe queue hands tasks to workers.\n\n" +
  "## Retrying tasks\n\n" +
  "A task that fails is retried three times, with a pause between attempts that doubles each " +
  "time. Workers report each attempt to the scheduler, which writes it to the task's history. " +
  "Each task may also carry an optional `hold_for` setting that keeps a failed task in the " +
  "queue for the given duration after its last attempt. " +
  "This can be used to keep a task from being dropped when its worker has a short outage. " +
  "Tasks without the `hold_for` setting leave the queue after their last attempt. " +
  "The history of a task is kept for thirty days, and the web view lists every attempt with its " +
  "worker, its start and its end. Operators can retry a task by hand from that view, which " +
  "starts a new attempt at once. A task retried by hand counts its attempts again from one, and " +
  "its pause starts at the shortest again, whatever the earlier attempts were.\n\n" +
  "## Workers\n\nA worker takes one task at a time from the queue.\n";

Deno.test("an answer shows a section's sentences in page order: 'This can be used…' after what it refers to", async () => {
  const { db, app } = await docsWiki({ "queue": QUEUE });
  await using _db = db;
  const answer = await ask(
    app,
    "docs",
    "How do I keep a failed task from being dropped when its worker has an outage?",
  );
  const setting = answer.answer.indexOf("optional `hold_for` setting");
  const use = answer.answer.indexOf("This can be used");
  assert.ok(setting >= 0 && use >= 0, answer.answer);
  assert.ok(setting < use, answer.answer);
  // Citations are numbered in the order the answer shows them, each quote at its offsets.
  const starts = answer.citations.map((c) => c.start);
  assert.deepEqual(starts, [...starts].sort((a, b) => a - b));
  assert.equal(answer.citations[0]!.section, "Task queue > Retrying tasks");
});

const AGENT = "# Agent mode\n\nAgent mode forwards samples and keeps no local database.\n\n" +
  "## Running in agent mode\n\n" +
  "Start the server with the `--agent` flag to run it as an agent. " +
  "It then serves a small status page on port 9095, without the query screens.\n\n" +
  "The agent keeps a write-ahead log of the samples it has not forwarded yet, and replays it " +
  "after a restart, so a short outage of the remote end loses nothing. The log is cut into " +
  "segments of a fixed size, and a segment is deleted once every sample in it has been " +
  "forwarded. When the remote end stays away for longer than the log can hold, the oldest " +
  "segments go first, and the agent says so in its own log. Forwarding runs in parallel " +
  "shards, whose number grows while the backlog grows and shrinks again when it is gone. " +
  "Each shard sends batches of a few thousand samples, retried with a pause that doubles up " +
  "to a limit.\n\n" +
  "## Limits of agent mode\n\nAn agent evaluates no rules and answers no queries.\n";

Deno.test("a sentence of documentation is shown with the rest of its short paragraph", async () => {
  const { db, app } = await docsWiki({ "agent": AGENT });
  await using _db = db;
  const answer = await ask(
    app,
    "docs",
    "What does the --agent flag show when it runs as an agent?",
  );
  // The paragraph's second sentence says what the first one leads to: the port.
  assert.match(answer.answer, /Start the server with the `--agent` flag[^[]*port 9095/);
  const first = answer.citations[0]!;
  assert.match(first.quote, /^Start the server with the `--agent` flag[\s\S]*query screens\.$/);
  assert.equal(first.section, "Agent mode > Running in agent mode");
});

Deno.test("an item further down an answer comes with its list's lead and the rest of a short list, once", async () => {
  // NATS's accounts page (eval/nats, Apache-2.0): a quote whose paragraph ends "You can use:"
  // before three items (username/password, nkeys, and add permissions).
  const accounts = await natsPage("configuration/securing_nats/accounts");
  const answer = await askPage("accounts", accounts, "How do I add a user with a password?");
  assert.match(
    answer.answer,
    /You can use: \[\d\]\n\n- Username\/password\.\n- Nkeys\.\n- And add permissions\./,
    answer.answer,
  );
  assert.doesNotMatch(answer.answer, /(^|\n)>|> >/, answer.answer);
  // No part of the page is quoted twice.
  const spans = answer.citations.map((c) => [c.start, c.end] as const).sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < spans.length; i++) {
    assert.ok(spans[i]![0] >= spans[i - 1]![1], `quotes overlap: ${JSON.stringify(spans)}`);
  }
});

Deno.test("the word saying what kind of answer is asked ('often' in 'how often') joins no other section", async () => {
  const { db, app } = await docsWiki(await evalPages("paperless"));
  await using _db = db;
  const answer = await ask(
    app,
    "docs",
    "How often does paperless look for new mail out of the box?",
  );
  assert.match(answer.answer, /every 10 minutes by default/, answer.answer);
  // The OCR setting's "will often result in correctly rotated pages" held "often" and
  // "paperless", and joined as a part of the question the first section lacked.
  assert.doesNotMatch(answer.answer, /ROTATE_PAGES/, answer.answer);
  assert.equal(new Set(answer.citations.map((c) => c.section)).size, 1, answer.answer);
});

Deno.test("commands written at a shell prompt without a fence are answered as code, one line each", async () => {
  // Prometheus's promtool page (../shared/eval/docsqa-dev, Apache-2.0) writes its examples as
  // paragraphs of `$ …` lines; read as prose they ran together, "… check metrics. $ curl -s …".
  const promtool = blocks(
    "# promtool",
    "## `promtool check metrics`",
    "Pass Prometheus metrics over stdin to lint them for consistency and correctness, and optionally perform cardinality analysis.",
    "examples:",
    "$ cat metrics.prom | promtool check metrics",
    "$ curl -s http://localhost:9090/metrics | promtool check metrics `--extended`",
    "## `promtool check rules`",
    "Check if the rule files are valid or not.",
  );
  const answer = await askPage("promtool", promtool, "How do I lint metrics with promtool?");
  assert.match(
    answer.answer,
    /```\n\$ cat metrics\.prom \| promtool check metrics\n```/,
    answer.answer,
  );
  assert.doesNotMatch(answer.answer, /check metrics\. \$/, answer.answer);
  for (const c of answer.citations) {
    assert.equal(promtool.slice(c.start, c.end), c.quote);
  }
});

Deno.test("an answer names the setting its section is headed by, though the text names a longer one", async () => {
  // paperless-ngx's configuration page (eval/paperless, GPL-3.0): the text of
  // `PAPERLESS_OCR_LANGUAGE` names `PAPERLESS_OCR_LANGUAGES`, which held the shorter name.
  const configuration = `# Configuration

## OCR settings

### \`PAPERLESS_OCR_LANGUAGE=<lang>\`

Customize the language that paperless will attempt to use when parsing documents. If you are
including languages that are not installed by default, you will need to also set
\`PAPERLESS_OCR_LANGUAGES\`. Defaults to "eng".

### \`PAPERLESS_OCR_MODE=<mode>\`

Tell paperless when and how to perform OCR on your documents. Defaults to "auto".
`;

  const answer = await askPage(
    "configuration",
    configuration,
    "Which setting picks the language OCR reads, and what is it by default?",
  );
  assert.match(answer.answer, /^`PAPERLESS_OCR_LANGUAGE=<lang>` — Customize/, answer.answer);
});

Deno.test("a list item's next sentence stays in its item in a short section shown whole", async () => {
  // paperless-ngx's configuration page (eval/paperless, GPL-3.0), shortened.
  const configuration = `# Configuration

## OCR settings

### \`PAPERLESS_ARCHIVE_FILE_GENERATION=<mode>\`

: Controls when paperless creates a PDF/A archive version of your
documents. Archive files are stored alongside the original.

    -   \`auto\` (default): Produce archives for scanned or image-based
        documents. Skip archive generation for born-digital PDFs that
        already contain embedded text.
    -   \`never\`: Never produce an archive. Only the original file is
        stored.

### \`PAPERLESS_OCR_CLEAN=<mode>\`

: Tells paperless to use \`unpaper\` to clean any input document before OCR.
`;
  const { answer } = await askPage(
    "configuration",
    configuration,
    "When does paperless skip the PDF/A archive?",
  );
  assert.match(
    answer,
    /^- `auto` \(default\): Produce archives .* Skip archive generation/m,
    answer,
  );
  assert.match(
    answer,
    /^- `never`: Never produce an archive\. Only the original file is stored\.$/m,
    answer,
  );
  assert.doesNotMatch(answer, /^- (?:Skip|Only)/m, answer);
});

Deno.test("a setting's answer opens with its own text, its note after it, and a list's items in the list's order", async () => {
  // paperless-ngx's configuration page (eval/paperless, GPL-3.0): the section's last note scored
  // best and opened the answer under the setting's name; the list's items came as picked.
  const configuration = `# Configuration

## OCR settings

#### [\`PAPERLESS_ARCHIVE_FILE_GENERATION=<mode>\`](#PAPERLESS_ARCHIVE_FILE_GENERATION) {#PAPERLESS_ARCHIVE_FILE_GENERATION}

: Controls when paperless creates a PDF/A archive version of your
documents. Archive files are stored alongside the original and are used
for display in the web interface.

    -   \`auto\` (default): Produce archives for scanned or image-based
        documents. Skip archive generation for born-digital PDFs that
        already contain embedded text. This is the recommended setting
        for mixed document collections.
    -   \`always\`: Always produce a PDF/A archive when the parser
        supports it, regardless of whether the document already has
        text.
    -   \`never\`: Never produce an archive. Only the original file is
        stored. Saves disk space but the web viewer will display the
        original file directly.

    **Behaviour by file type and mode** (\`auto\` column shows the default):

    | Document type              | \`never\` | \`auto\` (default)           | \`always\` |
    | -------------------------- | ------- | -------------------------- | -------- |
    | Scanned image (TIFF, JPEG) | No      | **Yes**                    | Yes      |
    | Image-based PDF            | No      | **Yes** (no embedded text) | Yes |
    | Born-digital PDF           | No      | No (has embedded text, optionally confirmed by tag) | Yes |
    | Plain text, email, HTML    | No      | No                         | No       |
    | DOCX / ODT (via Tika)      | Yes\\*   | Yes\\*                      | Yes\\*    |

    \\* Tika always produces a PDF rendition for display; this counts as
    the archive regardless of the setting.

    !!! note

        This setting applies to the built-in Tesseract parser. Parsers
        that must always convert documents to PDF for display (e.g. DOCX,
        ODT via Tika) will produce a PDF regardless of this setting.

    !!! note

        The **remote OCR parser** (Azure AI) always produces a searchable
        PDF and stores it as the archive copy, regardless of this setting.
        \`ARCHIVE_FILE_GENERATION=never\` has no effect when the remote
        parser handles a document.

#### [\`PAPERLESS_OCR_CLEAN=<mode>\`](#PAPERLESS_OCR_CLEAN) {#PAPERLESS_OCR_CLEAN}

: Tells paperless to use \`unpaper\` to clean any input document before OCR.
`;
  const { answer } = await askPage(
    "configuration",
    configuration,
    "PDFs downloaded from our bank never get a PDF/A copy, but the scans do. Is that on purpose, and which setting controls it?",
  );
  assert.match(answer, /^`PAPERLESS_ARCHIVE_FILE_GENERATION=<mode>` — Controls when/, answer);
  const at = (s: string) => answer.indexOf(s);
  assert.ok(at("The remote OCR parser") > at("Controls when"), answer);
  const items = ["`auto` (default)", "`always`:", "`never`:"].map(at).filter((i) => i >= 0);
  assert.ok(items.length >= 2, answer);
  assert.deepEqual(items, [...items].sort((a, b) => a - b), answer);
});

Deno.test("an item shown as a sentence keeps its code spans, and a link's attribute list goes", async () => {
  // Prometheus's querying basics (docsqa-dev, Apache-2.0) and paperless-ngx's setup page
  // (eval/paperless, GPL-3.0), shortened.
  const basics = `# Querying basics

## Offset modifier

The offset modifier shifts time.

## Subquery

Subquery allows you to run an instant query for a given range and resolution. The result of a
subquery is a range vector.

Syntax: \`<instant_query> '[' <range> ':' [<resolution>] ']' [ offset <duration> ]\`

* \`<resolution>\` is optional. Default is the global evaluation interval.
`;
  const subquery = await askPage("basics", basics, "Is the resolution of a subquery optional?");
  assert.match(
    subquery.answer,
    /`<resolution>` is optional\. Default is the global/,
    subquery.answer,
  );
  const setup = "# Installation\n\n## Docker\n\n" +
    'Docker and Docker Compose must be [installed](https://docs.docker.com/engine/install/){:target="\\_blank"}.\n';
  const docker = await askPage("setup", setup, "What must be installed for the Docker setup?");
  assert.match(docker.answer, /must be installed\./, docker.answer);
  assert.doesNotMatch(docker.answer, /\{:|_blank/, docker.answer);
});

Deno.test("a question asking for the default by a condition is weighed without the condition's words", async () => {
  const { db, app } = await docsWiki(await evalPages("paperless"));
  await using _db = db;
  // "if we leave the schedule alone", "when we leave the OCR mode at its default" ask for the
  // default; the setting's section says "Defaults to …" and never "leave" or "alone", which
  // weighed as the question's rarest words: right answers from the right section were `partial`.
  const schedule = await ask(
    app,
    "docs",
    "When does the automatic matching classifier retrain itself if we leave the schedule alone?",
  );
  assert.match(schedule.citations[0]!.section ?? "", /PAPERLESS_TRAIN_TASK_CRON/);
  assert.match(schedule.answer, /5 \*\/1 \* \* \*/, schedule.answer);
  assert.equal(schedule.coverage, "supported", schedule.answer);
  assert.ok(!schedule.frontier.some((n) => /"alone"/.test(n.note)), schedule.answer);
  const mode = await ask(
    app,
    "docs",
    "What happens to a PDF that already has text in it when we leave the OCR mode at its default?",
  );
  assert.match(mode.citations[0]!.section ?? "", /PAPERLESS_OCR_MODE/);
  assert.equal(mode.coverage, "supported", mode.answer);
  // The thing the condition names stays a word the answer must hold.
  const absent = await ask(
    app,
    "docs",
    "Which S3 bucket does paperless upload backups to if we leave the bucket alone?",
  );
  assert.notEqual(absent.coverage, "supported", absent.answer);
});

Deno.test("a hyphenated word of the question weighs by its parts, as search reads it", async () => {
  // Search reads "three-node" as `three` and `node`; the verdict also weighed its whole form,
  // which no page writes, as one more rare word the answer lacked, and flagged the procedure.
  const answer = await askSet(
    "nats",
    "What's the procedure to roll a new server release through our three-node cluster?",
  );
  assert.match(answer.citations[0]!.page, /upgrading_cluster/);
  assert.equal(answer.coverage, "supported", answer.answer);
});

Deno.test("the verdict weighs the section the answer shows, not another the question's subject meets", async () => {
  // Without its form words ("how many", "keep") the question's best sentence was the migration
  // guide's "old settings … old values", and the verdict read that, not the section shown.
  const answer = await askSet(
    "paperless",
    "How many rotated log files does paperless keep before throwing old ones away?",
  );
  assert.match(answer.citations[0]!.section ?? "", /PAPERLESS_LOGROTATE_MAX_BACKUPS/);
  assert.match(answer.answer, /Defaults to 20/, answer.answer);
  assert.equal(answer.coverage, "supported", answer.answer);
});

Deno.test("a page of one heading among documentation pages is weighed as documentation", async () => {
  // NATS's naming page is one `#` heading over its paragraphs, the shape of SQuAD's pages, and
  // its answers were held to the SQuAD bar; the passages beside it are sections of other pages.
  const answer = await askSet(
    "nats",
    "How long can our stream names safely be, given they end up as directory names?",
  );
  assert.match(answer.answer, /under 32 characters/, answer.answer);
  assert.equal(answer.coverage, "supported", answer.answer);
});

Deno.test("a filler of the question is not a word the answer must hold", async () => {
  // "a particular user": the section that answers restricts "a specific user"; "particular"
  // weighed as one of the question's rarest words, and the right answer was flagged.
  const answer = await askSet(
    "nats",
    "How do we make a particular user usable only from WebSocket connections?",
  );
  assert.match(answer.answer, /allowed_connection_types/, answer.answer);
  assert.equal(answer.coverage, "supported", answer.answer);
});

Deno.test("a reference entry the question names is supported although the question tells a story; a near miss is not", async () => {
  // Nautobot's settings page has NetBox's shape: a parameter a `##` heading, its `Default:`
  // line, a few sentences. The SQuAD-fitted model scored this right answer 0.17 (few of the
  // story's words, an entry barely above the other pages that name it); the documentation
  // branch weighs that the question names the entry (`entryNamed`: `NAUTOBOT_ROOT`, whole).
  const { db, app } = await docsWiki(await evalPages("nautobot"));
  await using _db = db;
  const named = await ask(
    app,
    "docs",
    "I changed NAUTOBOT_ROOT inside nautobot_config.py and files still end up in the old " +
      "place. What's wrong?",
  );
  assert.match(named.citations[0]!.section ?? "", / > NAUTOBOT_ROOT$/);
  assert.match(named.answer, /Do not override `NAUTOBOT_ROOT`/);
  assert.equal(named.coverage, "supported", named.answer);
  // An entry the question's words half meet (`REMOTE_AUTH_AUTO_CREATE_USER` for local accounts'
  // passwords) does not answer it, and stays flagged.
  const near = await ask(
    app,
    "docs",
    "Is there a setting that enforces minimum password length or complexity for local accounts?",
  );
  assert.notEqual(near.coverage, "supported", near.answer);
});

Deno.test("an answer the wiki does not give names the closest sections, each a link to its place", async () => {
  const { db, app } = await docsWiki(await evalPages("nautobot"));
  await using _db = db;
  // Search ranks the setting first; the story's words ("forever", "200k", "speed") are not the
  // setting's, so the answer stays under its bar. It named the closest pages by title alone,
  // "Optional Configuration Settings": a page of a hundred settings.
  const answer = await ask(
    app,
    "docs",
    "The prefix list page takes forever to load since we imported 200k prefixes. Anything to " +
      "speed it up?",
  );
  assert.equal(answer.coverage, "unsupported", answer.answer);
  assert.deepEqual(answer.citations, []);
  const link =
    /The closest sections are \[Optional Configuration Settings › DISABLE_PREFIX_LIST_HIERARCHY\]\((http[^)]+)#([^)]+)\)/
      .exec(answer.answer);
  assert.ok(link, answer.answer);
  // The link's anchor is the one the rendered page gives the setting's heading.
  const page = await app.request(new URL(link[1]!).pathname);
  assert.match(await page.text(), new RegExp(`id="${link[2]}"`));
  // The Ask page shows the links, and does not call an answer that quotes nothing "quoted".
  const shown = await (await app.request(`/w/docs/-/ask?q=${encodeURIComponent(answer.question)}`))
    .text();
  assert.match(shown, /<a href="[^"]*#disable_prefix_list_hierarchy"/);
  assert.doesNotMatch(shown, /quoted from the pages/);
});

Deno.test("a setting's old name the question writes finds the section that writes it whole", async () => {
  const { db, app } = await docsWiki(await evalPages("nautobot"));
  await using _db = db;
  // The lexical leg reads `CORS_ORIGIN_WHITELIST` as "cors", "origin", "whitelist": the next
  // section, whose old name is `CORS_ORIGIN_REGEX_WHITELIST`, holds them all and is shorter.
  const question =
    "Our old config still has CORS_ORIGIN_WHITELIST in it from years ago. Does that still do anything?";
  const top = (await search(app, "docs", question))[0]!;
  assert.equal(top.section, "Optional Configuration Settings > CORS_ALLOWED_ORIGINS");
  const answer = await ask(app, "docs", question);
  assert.equal(answer.citations[0]?.section, top.section, answer.answer);
  assert.match(answer.answer, /`CORS_ORIGIN_WHITELIST`, which still works as an alias/);
});

Deno.test("an issue's number is no amount: the setting's default answers how many", async () => {
  const { db, app } = await docsWiki(await evalPages("nautobot"));
  await using _db = db;
  // Search ranks `NAUTOBOT_UWSGI_PROCESSES` first; "More details can be found in issue #3779." on
  // the Prometheus page read as holding the amount asked, and its paragraph was the answer.
  const answer = await ask(
    app,
    "docs",
    "How many uWSGI worker processes does the Docker container start by default?",
  );
  assert.match(answer.citations[0]?.section ?? "", /`NAUTOBOT_UWSGI_PROCESSES`$/, answer.answer);
  assert.match(answer.answer, /Default: `3`/);
});

Deno.test("the closest sections' links hold when a path has parentheses and a heading brackets", async () => {
  const answer = await askPage(
    "Setup (legacy)",
    "# Setup (legacy)\n\n## Ports [v2]\n\nThe agent talks to the server on port 9000.",
    "Which port does the agent use to reach the kangaroo enclosure on weekends?",
  );
  assert.equal(answer.coverage, "unsupported", answer.answer);
  assert.ok(
    answer.answer.includes(
      "[Setup (legacy) › Ports \\[v2\\]](http://wiki.test/w/docs/Setup%20%28legacy%29#ports-v2)",
    ),
    answer.answer,
  );
});
