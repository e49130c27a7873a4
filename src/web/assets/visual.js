// The page editor's two modes (src/spaces/editor_page.tsx): Markdown, the text itself, and
// Visual, the same page edited in place (headings, lists, tables, code, callouts, images,
// links and [[wikilinks]]; "/" opens the block menu). Markdown stays what is stored: the
// visual editor (/assets/vendor/visual_editor.js, built by scripts/editor/build.sh) reads the
// textarea's text and writes its markdown back into it, changing only the blocks that were
// edited, so the form, the draft, the preview and Save work as before. The choice is kept
// per page in this browser, and the last choice is the default for other pages. Without this
// script (or if the bundle fails to load) the editor is the textarea alone.
(() => {
  const form = document.querySelector("form[data-editor]");
  const area = form && form.querySelector("textarea[name=markdown]");
  const choice = form && form.querySelector("[data-editor-mode]");
  if (!area || !choice) return;
  const field = area.parentElement;
  const toolbar = form.querySelector("[data-toolbar]");
  const preview = document.getElementById("preview");
  const status = form.querySelector("[data-mode-status]");
  const pageKey = `wiki-editor-mode:${form.getAttribute("action")}`;
  const remembered = () => {
    try {
      return localStorage.getItem(pageKey) ?? localStorage.getItem("wiki-editor-mode");
    } catch {
      return null;
    }
  };
  const remember = (mode) => {
    try {
      localStorage.setItem(pageKey, mode);
      localStorage.setItem("wiki-editor-mode", mode);
    } catch {
      // private browsing: the choice lasts for this page view
    }
  };
  let editor = null;
  let holder = null;
  let timer = null;

  /** Puts the visual editor's markdown into the textarea (the form's field). */
  function sync() {
    clearTimeout(timer);
    if (!editor) return;
    const next = editor.markdown();
    if (next === area.value) return;
    area.value = next;
    area.dispatchEvent(new Event("input", { bubbles: true }));
  }

  async function toVisual() {
    if (editor) return;
    holder = document.createElement("div");
    holder.className = "visual-editor";
    holder.setAttribute("aria-label", "Page text, visual");
    field.after(holder);
    try {
      const { openVisualEditor } = await import("/assets/vendor/visual_editor.js");
      editor = await openVisualEditor(holder, area.value, {
        onUpload: globalThis.wikiUploadFile,
        onChange() {
          clearTimeout(timer);
          timer = setTimeout(sync, 250);
        },
      });
    } catch (error) {
      holder.remove();
      holder = null;
      choose("markdown");
      if (status) status.textContent = "The visual editor could not load: editing the markdown";
      console.error(error);
      return;
    }
    field.hidden = true;
    if (toolbar) toolbar.hidden = true;
    if (preview) preview.dataset.visual = "";
    globalThis.wikiLinkSuggest?.(visualAdapter(editor, holder));
    editor.focus();
  }

  async function toSource() {
    if (!editor) return;
    sync();
    globalThis.wikiLinkSuggest?.(null);
    await editor.destroy();
    editor = null;
    holder.remove();
    holder = null;
    field.hidden = false;
    if (toolbar) toolbar.hidden = false;
    if (preview) delete preview.dataset.visual;
    area.focus();
  }

  function choose(mode) {
    for (const input of choice.querySelectorAll("input[type=radio]")) {
      input.checked = input.value === mode;
    }
  }

  /** What the `[[` / `@` suggestions (wikilink.js) need from the visual editor. */
  function visualAdapter(ed, root) {
    return {
      element: root,
      typed() {
        const { before } = ed.caret();
        const link = /\[\[([^\]\n|#]{1,80})$/.exec(before);
        if (link) return { text: link[1], length: link[0].length };
        const mention = /(?:^|\s)@([^\s@]{1,80})$/.exec(before);
        return mention ? { text: mention[1], length: mention[1].length + 1 } : null;
      },
      caret: () => ed.caret().coords,
      insert(path, length) {
        ed.insertWikiLink(path, length);
        sync();
      },
    };
  }

  choice.hidden = false;
  choice.addEventListener("change", (event) => {
    const mode = event.target.value;
    remember(mode);
    if (mode === "visual") toVisual();
    else toSource();
  });
  form.addEventListener("submit", sync, { capture: true });
  if (remembered() === "visual") {
    choose("visual");
    toVisual();
  }
})();
