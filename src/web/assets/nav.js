// A wiki's navigation, as progressive enhancement (every page works without it):
// - on a phone, the sidebar of pages and the table of contents start closed;
// - "/" focuses the search box (a wiki's, or the dashboard's), as on most documentation sites;
// - "?" opens the list of keys (/shortcuts);
// - Ctrl+S (Cmd+S on a Mac) in the editor saves the page, as Save does;
// - the wiki bar's Ask button opens the Ask page at once and streams the answer into it.
(() => {
  document.querySelector("form.wiki-search")?.addEventListener("submit", (event) => {
    const to = event.submitter?.getAttribute("formaction");
    const q = event.target.querySelector("input[name=q]")?.value.trim();
    if (!to || !to.endsWith("/-/ask") || !q) return;
    event.preventDefault();
    location.assign(`${to}?${new URLSearchParams({ q, stream: "1" })}`);
  });
  if (matchMedia("(max-width: 899px)").matches) {
    for (const details of document.querySelectorAll(".sidebar > details, .toc > details")) {
      details.open = false;
    }
  }
  document.addEventListener("keydown", (event) => {
    if (event.key !== "/" && event.key !== "?") return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target instanceof Element && target.closest("input, textarea, select, [contenteditable]")) {
      return;
    }
    if (event.key === "?") {
      location.assign("/shortcuts");
      return;
    }
    const search = document.getElementById("wiki-search");
    if (!search) return;
    event.preventDefault();
    search.focus();
    search.select();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key.toLowerCase() !== "s" || !(event.ctrlKey || event.metaKey) || event.altKey) {
      return;
    }
    const form = document.querySelector("form[data-editor]");
    const save = form && form.querySelector('button[value="save"]');
    if (!save) return;
    event.preventDefault();
    form.requestSubmit(save);
  });
})();
