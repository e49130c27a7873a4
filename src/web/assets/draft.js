// Drafts (src/spaces/editor_page.tsx): the editor's text is kept in this browser
// (localStorage) as it is typed, one draft per editor address, so an edit survives a session
// that ended, a closed tab or a crash. Opening the editor again offers the draft back when it
// differs from the text the page holds; a draft equal to the page's text, or one whose save went
// through (the page's revision moved past it), is dropped. A save refused because the session
// ended leaves the draft in place: sign in, open the editor, restore it and save.
(() => {
  const form = document.querySelector("form[data-editor]");
  const text = form?.elements.namedItem("markdown");
  if (!form || !text) return;
  let store;
  try {
    store = globalThis.localStorage;
  } catch {
    return; // storage blocked: no drafts
  }
  if (!store) return;
  const key = `wiki-draft:${new URL(form.action, location.href).pathname}`;
  const base = Number(form.elements.namedItem("base_revision")?.value || 0);
  let draft = null;
  try {
    draft = JSON.parse(store.getItem(key) || "null");
  } catch {
    draft = null;
  }
  if (draft && (draft.markdown === text.value || (draft.submitted && base > draft.base))) {
    store.removeItem(key);
    draft = null;
  }
  if (draft && typeof draft.markdown === "string") offer(draft);

  function keep(submitted) {
    try {
      store.setItem(key, JSON.stringify({ markdown: text.value, base, submitted, at: Date.now() }));
    } catch {
      // full or blocked: the server still has what was saved
    }
  }

  function offer(kept) {
    const box = document.createElement("div");
    box.className = "notice";
    box.id = "draft-offer";
    box.setAttribute("role", "status");
    const when = new Date(kept.at).toLocaleString();
    const note = document.createElement("p");
    note.textContent = `This browser kept a draft of this page (${when}) that differs from ` +
      "the text below.";
    const restore = document.createElement("button");
    restore.type = "button";
    restore.textContent = "Restore the draft";
    restore.addEventListener("click", () => {
      text.value = kept.markdown;
      text.dispatchEvent(new Event("input", { bubbles: true }));
      box.remove();
      text.focus();
    });
    const discard = document.createElement("button");
    discard.type = "button";
    discard.className = "secondary";
    discard.textContent = "Discard it";
    discard.addEventListener("click", () => {
      store.removeItem(key);
      box.remove();
    });
    box.append(note, restore, " ", discard);
    form.before(box);
  }

  let timer = null;
  text.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => keep(false), 300);
  });
  form.addEventListener("submit", (event) => {
    if (event.submitter?.value === "preview") return;
    clearTimeout(timer);
    keep(true);
  });
})();
