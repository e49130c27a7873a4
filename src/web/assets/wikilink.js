// Typing "[[" in the editor lists the wiki's pages whose titles hold what follows (from
// GET <data-suggest>?q=…); Enter or Tab (or a click) puts the page's link in. The list opens
// at the caret, inside the window. In the visual editor (visual.js) "@" does the same; it
// hands its own adapter to `globalThis.wikiLinkSuggest`. Without this script, links are typed in
// full as before.
(() => {
  const form = document.querySelector("form[data-editor][data-suggest]");
  const area = form && form.querySelector("textarea[name=markdown]");
  if (!area) return;
  const list = document.createElement("ul");
  list.id = "link-suggest";
  list.setAttribute("role", "listbox");
  list.setAttribute("aria-label", "Pages to link");
  list.hidden = true;
  document.body.append(list);
  let timer = null;
  let active = 0;

  /** Where the textarea's caret is on screen: a mirror of the text up to the caret. */
  function textareaCaret() {
    const style = getComputedStyle(area);
    const mirror = document.createElement("div");
    for (const p of ["font", "padding", "border", "boxSizing", "lineHeight", "letterSpacing"]) {
      mirror.style[p] = style[p];
    }
    Object.assign(mirror.style, {
      position: "absolute",
      visibility: "hidden",
      whiteSpace: "pre-wrap",
      overflowWrap: "break-word",
      width: `${area.clientWidth}px`,
    });
    mirror.textContent = area.value.slice(0, area.selectionStart);
    const marker = document.createElement("span");
    marker.textContent = "\u200b";
    mirror.append(marker);
    document.body.append(mirror);
    const box = area.getBoundingClientRect();
    const top = box.top + marker.offsetTop - area.scrollTop;
    const left = box.left + marker.offsetLeft - area.scrollLeft;
    const height = parseFloat(style.lineHeight) || 20;
    mirror.remove();
    return { left, top, bottom: top + height };
  }

  const textarea = {
    element: area,
    typed() {
      const match = /\[\[([^\]\n|#]{1,80})$/.exec(area.value.slice(0, area.selectionStart));
      return match ? { text: match[1], length: match[1].length, close: true } : null;
    },
    caret: textareaCaret,
    insert(path, length) {
      const end = area.selectionStart;
      const close = area.value.slice(end).startsWith("]]") ? "" : "]]";
      area.setRangeText(path + close, end - length, end, "end");
      area.dispatchEvent(new Event("input", { bubbles: true }));
      area.focus();
    },
  };
  let source = textarea;

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
    const typed = source.typed();
    if (typed === null) return hide();
    source.insert(path, typed.length);
    hide();
  };
  /** Opens the list at the caret: below it, or above it when the window ends first. */
  function place() {
    const caret = source.caret();
    list.style.position = "fixed";
    list.style.left = `${Math.max(8, Math.min(caret.left, innerWidth - list.offsetWidth - 8))}px`;
    const below = caret.bottom + 4;
    list.style.top = below + list.offsetHeight <= innerHeight - 8
      ? `${below}px`
      : `${Math.max(8, caret.top - list.offsetHeight - 4)}px`;
  }

  const NAVIGATION = new Set(["ArrowUp", "ArrowDown", "Enter", "Tab", "Escape"]);
  function onInput(event) {
    if (event?.type === "keyup" && NAVIGATION.has(event.key)) return;
    clearTimeout(timer);
    const typed = source.typed();
    if (typed === null || typed.text.trim().length < 2) return hide();
    timer = setTimeout(async () => {
      const q = typed.text.trim();
      const res = await fetch(`${form.dataset.suggest}?q=${encodeURIComponent(q)}`);
      if (!res.ok || source.typed()?.text !== typed.text) return;
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
      if (!list.hidden) place();
      mark(0);
    }, 150);
  }
  function onKeydown(event) {
    if (list.hidden) return;
    const all = options();
    if (event.key === "ArrowDown") mark(Math.min(active + 1, all.length - 1));
    else if (event.key === "ArrowUp") mark(Math.max(active - 1, 0));
    else if (event.key === "Enter" || event.key === "Tab") choose(all[active].dataset.path);
    else if (event.key === "Escape") hide();
    else return;
    event.preventDefault();
    event.stopPropagation();
  }
  const onBlur = () => setTimeout(hide, 200);
  function listen(target, on) {
    const method = on ? "addEventListener" : "removeEventListener";
    // The visual editor changes its own DOM and fires no reliable input event: keyup there.
    target.element[method](target === textarea ? "input" : "keyup", onInput);
    target.element[method]("keydown", onKeydown, true);
    target.element[method]("focusout", onBlur);
  }
  listen(textarea, true);

  /** The visual editor's adapter while it is open; null gives the textarea back. */
  globalThis.wikiLinkSuggest = (adapter) => {
    hide();
    listen(source, false);
    source = adapter ?? textarea;
    listen(source, true);
  };
})();
