import { type BlockKind, calloutLabel } from "../markdown/docs_blocks.ts";

const KINDS = new Set([
  "note",
  "info",
  "tip",
  "success",
  "warning",
  "caution",
  "danger",
  "important",
]);

function escape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

/**
 * The HTML that opens or closes a docs block in the reading view: a callout is an `<aside>`
 * (a `<details>` when MkDocs made it collapsible) titled by its kind; tabs are a group of
 * labelled sections that `docs_blocks.js` turns into a tab list (without script all of them
 * show, each under its label); steps an ordered list; an accordion a `<details>`; a definition
 * a description list's `<dd>`.
 */
export function blockHtml(
  marker: { open: boolean; kind: BlockKind; args: string[] },
  env: { steps?: number; stack?: string[] },
): string {
  env.stack ??= [];
  if (!marker.open) return `${env.stack.pop() ?? ""}\n`;
  const [first = "", second = "", third = ""] = marker.args;
  switch (marker.kind) {
    case "callout": {
      const kind = KINDS.has(first.toLowerCase()) ? first.toLowerCase() : "note";
      const title = escape(second || calloutLabel(first));
      const cls = `callout callout-${kind}`;
      if (third.startsWith("collapsible")) {
        env.stack.push("</div></details>");
        const open = third === "collapsibleopen" ? " open" : "";
        return `<details class="${cls}"${open}><summary class="callout-title">${title}</summary><div class="callout-body">\n`;
      }
      env.stack.push("</div></aside>");
      return `<aside class="${cls}" aria-label="${
        escape(calloutLabel(first))
      }"><p class="callout-title">${title}</p><div class="callout-body">\n`;
    }
    case "tabs":
      env.stack.push("</div>");
      return `<div class="tabs" data-tabs>\n`;
    case "tab":
      env.stack.push("</section>");
      return `<section class="tab" data-tab-label="${escape(first)}"><p class="tab-label">${
        escape(first)
      }</p>\n`;
    case "steps":
      env.stack.push("</ol>");
      return `<ol class="steps">\n`;
    case "step":
      env.stack.push("</li>");
      return `<li class="step"><p class="step-title">${escape(first)}</p>\n`;
    case "definition":
      env.stack.push("</dd></dl>");
      return `<dl class="definition"><dd>\n`;
    case "details":
      env.stack.push("</details>");
      return `<details class="accordion"><summary>${escape(first || "Details")}</summary>\n`;
  }
}
