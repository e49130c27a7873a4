// The site's menu on a phone: the header's links sit behind a "Menu" button, and so does a
// wiki's page tree (its sidebar moves into the menu while the screen is narrow). Without
// script, the header's links wrap onto more lines and the page tree stays below the page.
(() => {
  const button = document.querySelector("button.menu-button");
  const menu = document.getElementById("site-menu");
  if (!button || !menu) return;
  const narrow = matchMedia("(max-width: 899px)");
  const sidebar = document.querySelector(".wiki-grid > .sidebar");
  const home = sidebar && { parent: sidebar.parentElement, next: sidebar.nextSibling };

  function setOpen(open) {
    button.setAttribute("aria-expanded", String(open));
    menu.classList.toggle("open", open);
  }
  function place() {
    document.documentElement.classList.toggle("has-menu", narrow.matches);
    button.hidden = !narrow.matches;
    if (!narrow.matches) setOpen(false);
    if (!sidebar) return;
    if (narrow.matches && sidebar.parentElement !== menu) {
      menu.append(sidebar);
      const tree = sidebar.querySelector("details");
      if (tree) tree.open = true;
    } else if (!narrow.matches && sidebar.parentElement === menu) {
      home.parent.insertBefore(sidebar, home.next);
    }
  }
  button.addEventListener("click", () => setOpen(button.getAttribute("aria-expanded") !== "true"));
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || button.getAttribute("aria-expanded") !== "true") return;
    setOpen(false);
    button.focus();
  });
  narrow.addEventListener("change", place);
  place();
})();
