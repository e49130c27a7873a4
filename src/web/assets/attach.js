// Images pasted or dropped into the editor's markdown, or picked with the toolbar's Image
// button (the file input #attach-file), are uploaded to the wiki's files (POST <data-files>,
// answered in JSON) and a markdown image line is put at the cursor.
// Without script the editor links to the Files page, whose form does the same.
(() => {
  const form = document.querySelector("form[data-editor][data-files]");
  const area = form && form.querySelector("textarea[name=markdown]");
  const status = document.getElementById("attach-status");
  if (!form || !area) return;

  async function send(file) {
    const body = new FormData();
    body.set("_csrf", form.querySelector("input[name=_csrf]").value);
    body.set("file", file, file.name || "pasted.png");
    if (status) status.textContent = `Uploading ${file.name || "image"}…`;
    const res = await fetch(form.dataset.files, {
      method: "POST",
      body,
      headers: { Accept: "application/json" },
      credentials: "same-origin",
    });
    const answer = await res.json().catch(() => ({}));
    if (!res.ok) {
      if (status) status.textContent = answer.error || `The upload failed (${res.status})`;
      return null;
    }
    if (status) status.textContent = `Uploaded ${answer.name}.`;
    return answer;
  }
  // The visual editor (visual.js) uploads through the same request.
  globalThis.wikiUploadFile = send;

  async function upload(file) {
    const answer = await send(file);
    if (!answer) return;
    const line = answer.contentType.startsWith("image/")
      ? `![${answer.name}](${answer.href})`
      : `[${answer.name}](${answer.href})`;
    const at = area.selectionStart;
    area.setRangeText(line, at, area.selectionEnd, "end");
    area.dispatchEvent(new Event("input", { bubbles: true }));
  }

  function filesOf(list) {
    return [...(list || [])].filter((f) => f.size > 0);
  }

  const picker = document.getElementById("attach-file");
  picker?.addEventListener("change", () => {
    const files = filesOf(picker.files);
    picker.value = "";
    area.focus();
    files.reduce((done, file) => done.then(() => upload(file)), Promise.resolve());
  });
  area.addEventListener("paste", (event) => {
    const files = filesOf(event.clipboardData && event.clipboardData.files);
    if (files.length === 0) return;
    event.preventDefault();
    files.reduce((done, file) => done.then(() => upload(file)), Promise.resolve());
  });
  area.addEventListener("dragover", (event) => {
    if (event.dataTransfer && [...event.dataTransfer.types].includes("Files")) {
      event.preventDefault();
    }
  });
  area.addEventListener("drop", (event) => {
    const files = filesOf(event.dataTransfer && event.dataTransfer.files);
    if (files.length === 0) return;
    event.preventDefault();
    files.reduce((done, file) => done.then(() => upload(file)), Promise.resolve());
  });
})();
