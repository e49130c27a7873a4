// The import form (src/spaces/import_page.tsx), enhanced: the files upload with a progress bar
// (XMLHttpRequest, whose upload events fetch lacks), and the server's report replaces the old
// one in place. Without this script the form posts as usual and the page comes back with the
// report.
const form = document.querySelector("form[data-import]");
const box = document.getElementById("import-progress");
const bar = document.getElementById("import-bar");
const status = document.getElementById("import-status");

if (form && box && bar && status) {
  const button = form.querySelector('button[type="submit"]');
  const input = form.elements.namedItem("files");

  form.addEventListener("submit", (event) => {
    if (!input?.files?.length) return; // let the browser say the field is required
    event.preventDefault();
    const xhr = new XMLHttpRequest();
    xhr.open("POST", form.action);
    xhr.upload.addEventListener("progress", (e) => {
      if (!e.lengthComputable) return;
      const percent = Math.round((e.loaded / e.total) * 100);
      bar.value = percent;
      bar.textContent = `${percent}%`;
      status.textContent = `Uploading: ${percent}%`;
    });
    xhr.upload.addEventListener("load", () => {
      bar.removeAttribute("value"); // indeterminate while the server writes the pages
      status.textContent = "Uploaded. Importing the pages…";
    });
    xhr.addEventListener("load", () => {
      const type = xhr.getResponseHeader("content-type") ?? "";
      const page = /html/.test(type)
        ? new DOMParser().parseFromString(xhr.responseText, "text/html")
        : null;
      const report = page?.getElementById("import-report");
      const current = document.getElementById("import-report");
      done();
      if (report?.childElementCount && current) {
        current.replaceWith(document.importNode(report, true));
        const summary = document.getElementById("import-report-heading")?.nextElementSibling;
        status.textContent = `Import finished. ${summary?.textContent ?? ""}`;
        document.getElementById("import-report").focus();
        form.reset();
      } else {
        // An error page, or a problem document from a layer before the page (limits, timeouts).
        let message = page?.querySelector(".error, .alert, main p")?.textContent;
        if (!message && /json/.test(type)) {
          try {
            message = JSON.parse(xhr.responseText).detail;
          } catch {
            // not JSON after all
          }
        }
        status.textContent = `The import failed: ${message ?? `the server answered ${xhr.status}`}`;
      }
    });
    xhr.addEventListener("error", () => {
      done();
      status.textContent = "The upload failed: check the connection and try again.";
    });
    box.hidden = false;
    bar.value = 0;
    button.disabled = true;
    status.textContent = "Uploading…";
    xhr.send(new FormData(form));
  });

  const done = () => {
    box.hidden = true;
    button.disabled = false;
  };
}
