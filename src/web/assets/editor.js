// The page editor (src/spaces/editor_page.tsx), enhanced: Preview renders the markdown on the
// server (POST /w/<id>/-/preview) and shows it under the form without leaving the page, and
// leaving with unsaved changes asks first. Without this script, Preview posts the form and the
// page comes back with the preview; nothing else changes.
const form = document.querySelector("form[data-editor]");
const section = document.getElementById("preview");
const body = document.getElementById("preview-body");
const status = document.getElementById("preview-status");

if (form && section && body && status) {
  const button = form.querySelector('button[value="preview"]');
  const text = form.elements.namedItem("markdown");
  let dirty = false;
  let pending = null;

  text?.addEventListener("input", () => {
    dirty = true;
  });
  form.addEventListener("submit", (event) => {
    if (event.submitter === button) return;
    dirty = false;
  });
  addEventListener("beforeunload", (event) => {
    if (dirty) event.preventDefault();
  });

  button?.addEventListener("click", async (event) => {
    event.preventDefault();
    pending?.abort();
    const controller = new AbortController();
    pending = controller;
    button.disabled = true;
    status.textContent = "Rendering the preview…";
    try {
      const response = await fetch(form.dataset.preview, {
        method: "POST",
        body: new FormData(form),
        signal: controller.signal,
      });
      if (!response.ok) throw new Error(`the server answered ${response.status}`);
      // The server escapes raw HTML in the markdown; this is its rendering, not the user's text.
      body.innerHTML = await response.text();
      section.hidden = false;
      status.textContent = "Preview updated below the editor";
    } catch (error) {
      if (error.name === "AbortError") return;
      status.textContent = "";
      body.textContent = `The preview could not be made (${error.message}). ` +
        "Your text is unchanged; try again.";
      section.hidden = false;
    } finally {
      if (pending === controller) {
        pending = null;
        button.disabled = false;
      }
    }
  });
}
