// The search palette: Ctrl+K (⌘K on a Mac) opens a
// modal dialog over the page with one search box; as you type it lists titles, headings and
// sections from the page's suggest address (`data-suggest` of the search box, JSON). The box is
// a combobox (WAI-ARIA 1.2 pattern): ↓/↑ move through the options, Enter opens one, Esc closes.
// Pages without a search box get no palette; the search form works without script.
import { suggestAsYouType } from "./suggest.js";

(() => {
  const source = document.querySelector("input[data-suggest]");
  // The editor keeps Ctrl+K for links, and its visual mode lost keystrokes beside the palette's
  // dialog: pages that edit a page get no palette (the search box stays).
  if (!source || document.querySelector("textarea[name=markdown]")) return;
  const dialog = document.createElement("dialog");
  dialog.className = "palette";
  dialog.setAttribute("aria-label", "Search");
  dialog.innerHTML = `<form method="get" class="palette-form">
<label for="palette-input" class="sr-only">Search titles, headings and pages</label>
<input id="palette-input" name="q" type="text" autocomplete="off" spellcheck="false"
 role="combobox" aria-expanded="false" aria-controls="palette-list" aria-autocomplete="list"
 placeholder="Search titles, headings and pages">
<ul id="palette-list" role="listbox" aria-label="Results"></ul>
<p class="hint palette-keys"><kbd>↑</kbd> <kbd>↓</kbd> to move, <kbd>Enter</kbd> to open,
 <kbd>Esc</kbd> to close</p>
</form>`;
  document.body.append(dialog);
  const form = dialog.querySelector("form");
  form.action = source.form?.action ?? "";
  const input = dialog.querySelector("input");
  const list = dialog.querySelector("ul");
  let active = -1;

  const options = () => [...list.querySelectorAll("[role=option]")];
  function activate(at) {
    const all = options();
    active = all.length === 0 ? -1 : (at + all.length) % all.length;
    all.forEach((option, i) => option.setAttribute("aria-selected", String(i === active)));
    const current = all[active];
    if (current) {
      input.setAttribute("aria-activedescendant", current.id);
      current.scrollIntoView({ block: "nearest" });
    } else input.removeAttribute("aria-activedescendant");
  }

  function show(results) {
    list.replaceChildren(...results.map((r, i) => {
      const option = document.createElement("li");
      option.id = `palette-option-${i}`;
      option.setAttribute("role", "option");
      option.dataset.href = r.href;
      const title = document.createElement("span");
      title.className = "palette-title";
      // Plain text from the server: never parsed as HTML.
      // A section's heading path may start with the page's title: said once.
      const section = r.section?.startsWith(`${r.title} > `)
        ? r.section.slice(r.title.length + 3)
        : r.section;
      title.textContent = section ? `${r.title} › ${section.replaceAll(" > ", " › ")}` : r.title;
      option.append(title);
      if (r.snippet) {
        const snippet = document.createElement("span");
        snippet.className = "snippet";
        snippet.textContent = r.snippet;
        option.append(snippet);
      }
      option.addEventListener("click", () => location.assign(r.href));
      return option;
    }));
    input.setAttribute("aria-expanded", String(results.length > 0));
    activate(0);
  }

  suggestAsYouType(input, source.dataset.suggest, 120, show);
  input.addEventListener("keydown", (event) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      activate(active + (event.key === "ArrowDown" ? 1 : -1));
    } else if (event.key === "Enter" && active >= 0) {
      event.preventDefault();
      location.assign(options()[active].dataset.href);
    }
  });
  // A click on the backdrop (outside the form) closes the palette.
  dialog.addEventListener("click", (event) => {
    if (event.target === dialog) dialog.close();
  });

  function open() {
    if (dialog.open) return;
    input.value = "";
    show([]);
    dialog.showModal();
    input.focus();
  }
  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.key.toLowerCase() !== "k") return;
    if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
    // The editor's Ctrl+K makes a link (toolbar.js); elsewhere it opens the palette.
    if (event.target instanceof Element && event.target.closest("textarea, [contenteditable]")) {
      return;
    }
    event.preventDefault();
    open();
  });
})();
