// The editor's formatting toolbar and keys (src/spaces/editor_page.tsx): each button puts
// markdown around the selection or in front of the selected lines, and a second press takes
// it off again; "Image" opens the file picker, whose file attach.js uploads as it does a
// pasted one. Edits go through execCommand("insertText"), so Ctrl+Z undoes them as typing.
// Without this script the toolbar stays hidden and markdown is typed by hand.
(() => {
  const form = document.querySelector("form[data-editor]");
  const area = form && form.querySelector("textarea[name=markdown]");
  const bar = form && form.querySelector("[data-toolbar]");
  if (!area || !bar) return;
  area.before(bar);
  bar.hidden = false;

  /** Replaces value[start, end) with text, then selects text[from, to). */
  function replace(start, end, text, from = text.length, to = from) {
    area.focus();
    area.setSelectionRange(start, end);
    if (!document.execCommand("insertText", false, text)) {
      area.setRangeText(text, start, end, "end");
      area.dispatchEvent(new Event("input", { bubbles: true }));
    }
    area.setSelectionRange(start + from, start + to);
  }

  function wrap(before, after, placeholder) {
    const { selectionStart: s, selectionEnd: e, value } = area;
    const selected = value.slice(s, e);
    const wrapped = value.slice(s - before.length, s) === before &&
      value.slice(e, e + after.length) === after;
    if (selected && wrapped) {
      return replace(s - before.length, e + after.length, selected, 0, selected.length);
    }
    const inner = selected || placeholder;
    replace(s, e, before + inner + after, before.length, before.length + inner.length);
  }

  /** The whole lines the selection touches: where they start and end. */
  function selectedLines() {
    const { selectionStart: s, selectionEnd: e, value } = area;
    const start = value.lastIndexOf("\n", s - 1) + 1;
    const last = e > s && value[e - 1] === "\n" ? e - 1 : e;
    const end = value.indexOf("\n", last);
    return { start, end: end < 0 ? value.length : end };
  }

  function eachLine(change) {
    const { start, end } = selectedLines();
    const lines = area.value.slice(start, end).split("\n");
    const text = change(lines).join("\n");
    replace(start, end, text, lines.length > 1 ? 0 : text.length, text.length);
  }

  const FORMATS = {
    // No heading → "## " → "### " → no heading.
    heading: () =>
      eachLine((lines) =>
        lines.map((line) => {
          const level = /^(#{1,6}) /.exec(line);
          if (!level) return `## ${line}`;
          return level[1].length < 3 ? `#${line}` : line.slice(level[0].length);
        })
      ),
    bold: () => wrap("**", "**", "bold text"),
    italic: () => wrap("_", "_", "italic text"),
    link() {
      const { selectionStart: s, selectionEnd: e, value } = area;
      const selected = value.slice(s, e);
      if (/^https?:\/\/\S+$/.test(selected)) {
        return replace(s, e, `[link text](${selected})`, 1, 10);
      }
      const label = selected || "link text";
      const text = `[${label}](https://)`;
      if (selected) replace(s, e, text, label.length + 3, text.length - 1);
      else replace(s, e, text, 1, 1 + label.length);
    },
    code() {
      const { selectionStart: s, selectionEnd: e, value } = area;
      const selected = value.slice(s, e);
      if (!selected.includes("\n")) return wrap("`", "`", "code");
      const before = s === 0 || value[s - 1] === "\n" ? "" : "\n";
      const body = selected.replace(/\n$/, "");
      replace(
        s,
        e,
        `${before}\`\`\`\n${body}\n\`\`\`\n`,
        before.length + 4,
        before.length + 4 + body.length,
      );
    },
    // Lines that are all items lose their markers; otherwise each line becomes an item (a
    // lone empty line too: that starts a list; empty lines between others stay empty).
    list: () =>
      eachLine((lines) => {
        const written = lines.filter((line) => line !== "");
        return written.length > 0 && written.every((line) => /^\s*[-*] /.test(line))
          ? lines.map((line) => line.replace(/^(\s*)[-*] /, "$1"))
          : lines.map((line) => (line === "" && lines.length > 1 ? line : `- ${line}`));
      }),
    table() {
      const { end } = selectedLines();
      const line = area.value.slice(area.value.lastIndexOf("\n", end - 1) + 1, end);
      const before = line.trim() === "" ? "" : "\n\n";
      const table = "| Column | Column |\n| ------ | ------ |\n| Cell   | Cell   |\n";
      replace(end, end, before + table, before.length + 2, before.length + 8);
    },
    image: () => document.getElementById("attach-file")?.click(),
  };

  // One tab stop for the toolbar; the arrow keys move between its buttons (the ARIA toolbar
  // pattern), so Tab goes from the path to the text without crossing eight buttons.
  const buttons = [...bar.querySelectorAll("button[data-format]")];
  buttons.forEach((button, i) => (button.tabIndex = i === 0 ? 0 : -1));
  bar.addEventListener("keydown", (event) => {
    const at = buttons.indexOf(document.activeElement);
    const moves = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: buttons.length - 1 };
    if (at < 0 || !(event.key in moves)) return;
    event.preventDefault();
    const to = buttons[(moves[event.key] + buttons.length) % buttons.length];
    buttons[at].tabIndex = -1;
    to.tabIndex = 0;
    to.focus();
  });

  bar.addEventListener("click", (event) => {
    const button = event.target instanceof Element && event.target.closest("button[data-format]");
    if (!button) return;
    FORMATS[button.dataset.format]?.();
  });

  // Enter in a list item starts the next item (numbered ones count on, a task gets an empty
  // box); Enter on an item left empty ends the list, as in every writing app.
  const ITEM = /^(\s*)([-*+]|\d{1,9}[.)])( \[[ xX]\])? (.*)$/;
  area.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || event.shiftKey || event.ctrlKey || event.metaKey) return;
    if (event.altKey || event.isComposing || event.defaultPrevented) return;
    const { selectionStart: s, selectionEnd: e, value } = area;
    if (s !== e) return;
    const start = value.lastIndexOf("\n", s - 1) + 1;
    const item = ITEM.exec(value.slice(start, s));
    if (!item) return;
    event.preventDefault();
    const [, indent, marker, task, text] = item;
    if (text.trim() === "" && value.slice(s, value.indexOf("\n", s) >>> 0).trim() === "") {
      return replace(start, s, "");
    }
    const number = /^(\d+)([.)])$/.exec(marker);
    const next = number ? `${Number(number[1]) + 1}${number[2]}` : marker;
    replace(s, s, `\n${indent}${next}${task ? " [ ]" : ""} `);
  });

  const KEYS = { b: "bold", i: "italic", k: "link", e: "code" };
  area.addEventListener("keydown", (event) => {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
    const format = KEYS[event.key.toLowerCase()];
    if (!format) return;
    event.preventDefault();
    FORMATS[format]();
  });
})();
