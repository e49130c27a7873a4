// The page editor (src/spaces/editor_page.tsx), enhanced: the preview beside the text follows
// it as it is written. It is rendered by the server (POST /w/<id>/-/preview, the renderer of
// saved pages, so links, titles and escaping are the page's own) once typing pauses for
// PAUSE_MS, never once per keystroke; a text already shown is not asked for again, and an
// answer overtaken by newer typing is dropped. Preview renders at once. Leaving with unsaved
// changes asks first. Without this script, Preview posts the form and the page comes back
// with the preview; nothing else changes.
(() => {
  const PAUSE_MS = 400;
  const EMPTY = "The preview shows here as you write.";
  const form = document.querySelector("form[data-editor]");
  const section = document.getElementById("preview");
  const body = document.getElementById("preview-body");
  const status = document.getElementById("preview-status");
  if (!form || !section || !body || !status) return;

  const button = form.querySelector('button[value="preview"]');
  const text = form.elements.namedItem("markdown");
  const path = form.elements.namedItem("path");
  let dirty = false;
  let pending = null;
  let timer = null;
  /** What the preview shows: the path and text it was rendered from. */
  let shown = body.childElementCount > 0 ? key() : null;

  function key() {
    return `${path?.value ?? ""}\n${text?.value ?? ""}`;
  }

  async function render(announce) {
    clearTimeout(timer);
    const asked = key();
    if (asked === shown && !announce) return;
    pending?.abort();
    if (!text?.value.trim()) {
      pending = null;
      shown = asked;
      body.textContent = EMPTY;
      return;
    }
    const controller = new AbortController();
    pending = controller;
    if (announce) status.textContent = "Rendering the preview…";
    try {
      const response = await fetch(form.dataset.preview, {
        method: "POST",
        body: new FormData(form),
        signal: controller.signal,
      });
      if (!response.ok) {
        const problem = await response.json().catch(() => ({}));
        throw new Error(problem.detail || `the server answered ${response.status}`);
      }
      const html = await response.text();
      if (pending !== controller) return;
      // The server escapes raw HTML in the markdown; this is its rendering, not the user's text.
      body.innerHTML = html;
      shown = asked;
      if (announce) status.textContent = "Preview updated";
    } catch (error) {
      if (error.name === "AbortError") return;
      status.textContent = "";
      shown = null;
      body.textContent = `The preview could not be made (${error.message}). ` +
        "Your text is unchanged.";
    } finally {
      if (pending === controller) pending = null;
    }
  }

  function later() {
    clearTimeout(timer);
    timer = setTimeout(() => render(false), PAUSE_MS);
  }

  section.hidden = false;
  if (shown === null) render(false);
  text?.addEventListener("input", () => {
    dirty = true;
    later();
  });
  path?.addEventListener("input", later);
  form.addEventListener("submit", (event) => {
    if (event.submitter === button) return;
    dirty = false;
  });
  addEventListener("beforeunload", (event) => {
    if (dirty) event.preventDefault();
  });
  button?.addEventListener("click", (event) => {
    event.preventDefault();
    render(true);
  });
})();
