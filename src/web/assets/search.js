// Results as you type in a search box (a wiki's, or all your spaces' on the dashboard): page
// titles and the best sections with their snippets (and spaces), from GET <data-suggest>?q=…
// (JSON), in a list under the box. Enter still submits the form to the
// full results page, which is what happens without this script.
import { suggestAsYouType } from "./suggest.js";

(() => {
  const input = document.querySelector("input[data-suggest]");
  if (!input) return;
  const list = document.createElement("ul");
  list.id = "wiki-suggest";
  list.setAttribute("aria-label", "Suggestions");
  list.hidden = true;
  input.after(list);
  input.setAttribute("aria-controls", "wiki-suggest");

  function show(results) {
    list.replaceChildren(...results.map((r) => {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = r.href;
      link.textContent = r.title;
      const where = [r.space, r.section].filter(Boolean).join(" › ");
      if (where) {
        const span = document.createElement("span");
        span.className = "hint";
        span.textContent = where;
        link.append(span);
      }
      if (r.snippet) {
        // Plain text from the server (the snippet search gives): never parsed as HTML.
        const span = document.createElement("span");
        span.className = "snippet";
        span.textContent = r.snippet;
        link.append(span);
      }
      item.append(link);
      return item;
    }));
    list.hidden = results.length === 0;
  }

  suggestAsYouType(input, input.dataset.suggest, 150, show);
  input.addEventListener("keydown", (event) => {
    if (event.key === "Escape") show([]);
    if (event.key === "ArrowDown" && !list.hidden) {
      event.preventDefault();
      list.querySelector("a")?.focus();
    }
  });
  list.addEventListener("keydown", (event) => {
    const links = [...list.querySelectorAll("a")];
    const at = links.indexOf(document.activeElement);
    if (event.key === "ArrowDown" && at < links.length - 1) links[at + 1].focus();
    else if (event.key === "ArrowUp") (at > 0 ? links[at - 1] : input).focus();
    else if (event.key === "Escape") {
      show([]);
      input.focus();
    } else return;
    event.preventDefault();
  });
  document.addEventListener("click", (event) => {
    if (!list.contains(event.target) && event.target !== input) show([]);
  });
})();
