// Typing "[[" in the editor lists the wiki's pages whose titles hold what follows (from
// GET <data-suggest>?q=…); Enter or Tab (or a click) puts the page's path and "]]" in.
// Without this script, links are typed in full as before.
(() => {
  const form = document.querySelector("form[data-editor][data-suggest]");
  const area = form && form.querySelector("textarea[name=markdown]");
  if (!area) return;
  const list = document.createElement("ul");
  list.id = "link-suggest";
  list.setAttribute("role", "listbox");
  list.setAttribute("aria-label", "Pages to link");
  list.hidden = true;
  area.after(list);
  let timer = null;
  let active = 0;

  const typed = () => {
    const match = /\[\[([^\]\n|#]{1,80})$/.exec(area.value.slice(0, area.selectionStart));
    return match ? match[1] : null;
  };
  const options = () => [...list.querySelectorAll("li")];
  const hide = () => {
    list.hidden = true;
    list.replaceChildren();
  };
  const mark = (index) => {
    active = index;
    options().forEach((li, i) => li.setAttribute("aria-selected", String(i === index)));
  };
  const choose = (path) => {
    const text = typed();
    if (text === null) return hide();
    const end = area.selectionStart;
    const close = area.value.slice(end).startsWith("]]") ? "" : "]]";
    area.setRangeText(path + close, end - text.length, end, "end");
    area.dispatchEvent(new Event("input", { bubbles: true }));
    hide();
    area.focus();
  };

  area.addEventListener("input", () => {
    clearTimeout(timer);
    const text = typed();
    if (text === null || text.trim().length < 2) return hide();
    timer = setTimeout(async () => {
      const res = await fetch(`${form.dataset.suggest}?q=${encodeURIComponent(text.trim())}`);
      if (!res.ok || typed() !== text) return;
      const pages = (await res.json()).results.filter((r) => r.path);
      list.replaceChildren(...pages.map((page) => {
        const li = document.createElement("li");
        li.setAttribute("role", "option");
        li.textContent = page.title === page.path ? page.path : `${page.title} (${page.path})`;
        li.addEventListener("mousedown", (event) => {
          event.preventDefault();
          choose(page.path);
        });
        li.dataset.path = page.path;
        return li;
      }));
      list.hidden = pages.length === 0;
      mark(0);
    }, 150);
  });
  area.addEventListener("keydown", (event) => {
    if (list.hidden) return;
    const all = options();
    if (event.key === "ArrowDown") mark(Math.min(active + 1, all.length - 1));
    else if (event.key === "ArrowUp") mark(Math.max(active - 1, 0));
    else if (event.key === "Enter" || event.key === "Tab") choose(all[active].dataset.path);
    else if (event.key === "Escape") hide();
    else return;
    event.preventDefault();
  });
  area.addEventListener("blur", () => setTimeout(hide, 200));
})();
