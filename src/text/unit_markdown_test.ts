import assert from "node:assert/strict";
import { splitSentences } from "./sentences.ts";
import { composeAnswer, rowLabel, unitMarkdown } from "./unit_markdown.ts";

const TABLE = "## Configuration Options\n\n" +
  "| Field | Description | Default | Required |\n" +
  "|:------|:------------|:--------|:---------|\n" +
  '| <a id="opt-rejectStatusCode" href="#opt-rejectStatusCode" title="#opt-rejectStatusCode">rejectStatusCode</a> | Defines the HTTP status code used for refused requests. | 403 | No |\n';

const unit = (markdown: string, kind: string) => {
  const s = splitSentences(markdown).find((s) => s.kind === kind)!;
  return unitMarkdown(s, markdown, s.start);
};

Deno.test("a table row is read with its header, its HTML gone", () => {
  assert.equal(
    unit(TABLE, "row"),
    "`rejectStatusCode` — Defines the HTTP status code used for refused requests. " +
      "Default: `403`. Required: No.",
  );
});

Deno.test("a code block stays fenced code, its tab info string cut to the language", () => {
  const page = 'Use a socket proxy:\n\n```yaml tab="Docker Compose"\nservices:\n  traefik:\n' +
    '    image: "traefik:latest"\n```\n';
  assert.equal(
    unit(page, "code"),
    '```yaml\nservices:\n  traefik:\n    image: "traefik:latest"\n```',
  );
});

Deno.test("list items side by side stay a list; prose runs on; a code block stands alone", () => {
  const answer = composeAnswer([
    { kind: "prose", shown: "When a node is down:", plain: "When a node is down:" },
    { kind: "item", shown: "1. Drain it.", plain: "Drain it." },
    { kind: "item", shown: "2. Page the on-call.", plain: "Page the on-call." },
    { kind: "code", shown: "```sh\nkubectl get nodes\n```", plain: "kubectl get nodes" },
  ]);
  assert.equal(
    answer,
    "When a node is down: [1]\n\n1. Drain it. [2]\n2. Page the on-call. [3]\n\n" +
      "```sh\nkubectl get nodes\n```\n[4]",
  );
});

Deno.test("a table row names what its first column's header says: a flag, a field", () => {
  const flags = "| Flag | Description | Default |\n| --- | --- | --- |\n" +
    "| <code>--query.max-samples</code> | Maximum number of samples a query can load. | `50000000` |\n";
  const row = (markdown: string) => {
    const s = splitSentences(markdown).find((s) => s.kind === "row")!;
    return rowLabel(s.text, markdown, s.start);
  };
  assert.equal(row(flags), "Flag");
  assert.equal(row(TABLE), "Field");
  // A first column of descriptions names nothing; a row outside a table has no header.
  assert.equal(row("| Description | Value |\n| --- | --- |\n| Retries | 3 |\n"), "");
  assert.equal(row("Some text.\n\n| a | b |\n"), "");
});

Deno.test("a prose sentence keeps its code spans as written, its other syntax gone", () => {
  const page = "`nats account restore` will **fail** if the [stream](streams.md) exists; " +
    "write `<br>` or `a_b_c` as they are.\n";
  assert.equal(
    unit(page, "prose"),
    "`nats account restore` will fail if the stream exists; write `<br>` or `a_b_c` as they are.",
  );
});

Deno.test("a one-word lower-case name in a column of names is code, not a capitalised word", () => {
  const functions = "| Name | Arguments | Notes |\n| --- | --- | --- |\n" +
    "| humanize | number | Converts a number to a readable format.\n";
  assert.equal(
    unit(functions, "row"),
    "`humanize` — Arguments: number. Converts a number to a readable format.",
  );
  // In a column of anything else, a row's first word starts its sentence.
  assert.match(
    unit("| Mode | Notes |\n| --- | --- |\n| never | Ignores it. |\n", "row"),
    /^Never —/,
  );
});

Deno.test("a table row's code spans stay as written: underscores are code, not emphasis", () => {
  const table = "| Permission | Description |\n|---|---|\n" +
    '| `{\'dcim.view_device\': {"site__name__in":  ["HQ"]}}` | Users can view __all__ devices in HQ |\n';
  assert.equal(
    unit(table, "row"),
    '`{\'dcim.view_device\': {"site__name__in":  ["HQ"]}}` — Users can view all devices in HQ.',
  );
});
