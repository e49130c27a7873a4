import assert from "node:assert/strict";
import { plainText, splitSentences } from "./sentences.ts";

Deno.test("the splitter keeps abbreviations, initials and decimals inside their sentence", () => {
  const text = "Use a light soil, e.g. loam. Dr. J. Smith measured 3.5 cm. It grew.";
  assert.deepEqual(splitSentences(text).map((s) => s.text), [
    "Use a light soil, e.g. loam.",
    "Dr. J. Smith measured 3.5 cm.",
    "It grew.",
  ]);
});

Deno.test("list items, table rows and code blocks are units of their own, with exact offsets", () => {
  const text =
    "Steps:\n1. Open the app.\n2. Run this\n   on two lines\n\n```sh\nfalcon rollback --to <sha>\n```\n" +
    "| Port | Use |\n|---|---|\n| 8443 | HTTPS |\nAfter the table.";
  const sentences = splitSentences(text);
  for (const s of sentences) assert.equal(text.slice(s.start, s.end), s.text);
  assert.deepEqual(sentences.map((s) => [s.kind, s.text]), [
    ["prose", "Steps:"],
    ["item", "1. Open the app."],
    ["item", "2. Run this\n   on two lines"],
    ["code", "```sh\nfalcon rollback --to <sha>\n```"],
    ["heading", "| Port | Use |"],
    ["markup", "|---|---|"],
    ["row", "| 8443 | HTTPS |"],
    ["prose", "After the table."],
  ]);
  assert.deepEqual(sentences.map(plainText), [
    "Steps:",
    "Open the app.",
    "Run this on two lines.",
    "falcon rollback --to <sha>",
    "Port, Use",
    "|---|---|",
    "8443, HTTPS.",
    "After the table.",
  ]);
});

Deno.test("plain text drops emphasis, code marks and link syntax but keeps placeholders", () => {
  assert.equal(
    plainText({
      kind: "prose",
      text:
        "Run **`falcon rollback --to <sha>`** (see [[Deploys#Rollbacks|rollbacks]] and [docs](https://x.test)).",
    }),
    "Run falcon rollback --to <sha> (see rollbacks and docs).",
  );
  // A link's attribute list (MkDocs' `attr_list`) is the format's; a `{…}` of the text stays.
  assert.equal(
    plainText({
      kind: "prose",
      text: 'Compose must be [installed](https://x.test){:target="\\_blank"}; set {port} there.',
    }),
    "Compose must be installed; set {port} there.",
  );
});

Deno.test("a list item ending in ; or , ends with a full stop in its place, not after it", () => {
  assert.equal(
    plainText({ kind: "item", text: "- they lose it if you leave the team;" }),
    "They lose it if you leave the team.",
  );
  assert.equal(plainText({ kind: "item", text: "* apples," }), "Apples.");
  assert.equal(plainText({ kind: "item", text: "- done." }), "Done.");
});

Deno.test("admonition markers are the format's, not the text's", () => {
  assert.equal(
    plainText({ kind: "prose", text: ":::warning\nIf you enable this, all repos use it.\n:::" }),
    "If you enable this, all repos use it.",
  );
  assert.equal(
    plainText({ kind: "prose", text: '!!! note "Heads up"\n    Keep the key.' }),
    "Heads up Keep the key.",
  );
});

Deno.test("a table row without its closing pipe is a row, not prose", () => {
  const text = "| Name | Notes |\n|---|---|\n| humanize | Converts a number. Uses prefixes.\n" +
    "| humanize1024 | Uses 1024. |";
  assert.deepEqual(splitSentences(text).map((s) => s.kind), ["heading", "markup", "row", "row"]);
});

Deno.test("a blockquote's lines are read as the lines they quote: paragraphs, list items", () => {
  // NATS's accounts page (eval/nats): a quoted paragraph, a quoted list, a quoted paragraph.
  const text = "> The user configuration map is the same. You can use:\n>\n" +
    "> * username/password\n> * nkeys\n>\n> While the name _account_ implies one or more users,\n" +
    "> think of one account as a container.";
  const units = splitSentences(text);
  assert.deepEqual(units.map((s) => [s.kind, plainText(s)]), [
    ["prose", "The user configuration map is the same."],
    ["prose", "You can use:"],
    ["item", "Username/password."],
    ["item", "Nkeys."],
    [
      "prose",
      "While the name account implies one or more users, think of one account as a container.",
    ],
  ]);
  for (const u of units) assert.equal(text.slice(u.start, u.end), u.text, "offsets are exact");
  assert.ok(!units.some((u) => u.text.startsWith(">")), "a unit starts after its quote's markers");
});

Deno.test("an image on a line of its own under a list item is not read into the item", () => {
  // Argo Rollouts' Slack page (eval/rollouts): a screenshot under each step.
  const md = "1. Create an app at https://api.slack.com/apps?new_app=1\n" +
    "![1](https://example.com/1.png)\n1. See ![the icon](https://example.com/i.png) there\n";
  const items = splitSentences(md).filter((s) => s.kind === "item").map(plainText);
  assert.deepEqual(items, [
    "Create an app at https://api.slack.com/apps?new_app=1.",
    "See the icon there.",
  ]);
});

Deno.test("a callout's opening line alone is markup; one with a title, or with its text, is not", () => {
  const kinds = (md: string) => splitSentences(md).map((s) => `${s.kind}:${s.text}`);
  assert.deepEqual(kinds("Defaults to 8000.\n\n    !!! note\n\n        Also `GRANIAN_PORT`."), [
    "prose:Defaults to 8000.",
    "markup:!!! note",
    "prose:Also `GRANIAN_PORT`.",
  ]);
  assert.deepEqual(kinds(":::warning\n\nDo not.\n\n:::"), [
    "markup::::warning",
    "prose:Do not.",
    "markup::::",
  ]);
  assert.deepEqual(kinds('!!! tip "Faster imports"'), ['prose:!!! tip "Faster imports"']);
});

Deno.test("a paragraph of lines at a shell prompt is one code unit; prose mentioning $ is not", () => {
  const text =
    "examples:\n\n$ cat metrics.prom | promtool check metrics\n$ promtool check rules\n\n" +
    "It costs $ 5 a month.";
  const units = splitSentences(text);
  assert.deepEqual(units.map((u) => u.kind), ["prose", "code", "prose"]);
  assert.equal(
    units[1]!.text,
    "$ cat metrics.prom | promtool check metrics\n$ promtool check rules",
  );
  for (const u of units) assert.equal(text.slice(u.start, u.end), u.text);
});
