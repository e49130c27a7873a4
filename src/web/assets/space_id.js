// The new-space form (src/dashboard/dashboard_page.tsx): the space id follows the title as it
// is typed ("Team notes" → team-notes), until the id is edited by hand. The server makes the
// same id from the title when the id is left empty (src/wikis/create_space.ts, idFromTitle).
(() => {
  const form = document.querySelector('form[action="/spaces"]');
  const title = form && form.querySelector("input[name=title]");
  const id = form && form.querySelector("input[name=id]");
  if (!title || !id) return;
  const fromTitle = (text) =>
    text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
      .replace(/[^a-z0-9]+/g, "-").slice(0, 64).replace(/^-+|-+$/g, "");
  let followed = id.value === "" || id.value === fromTitle(title.value);
  id.addEventListener("input", () => {
    followed = id.value === "";
  });
  title.addEventListener("input", () => {
    if (followed) id.value = fromTitle(title.value);
  });
})();
