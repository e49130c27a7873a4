// Tabs (`<div class="tabs" data-tabs>`, one `<section class="tab">` each), in imported docs and
// on the connect page: a tab list with the arrow keys, Home and End, as the WAI-ARIA tabs
// pattern. Without script every tab shows under its label. A panel with an id opens when the
// address's #fragment names it, and names its tab `tab-<id>`.
for (const group of document.querySelectorAll("[data-tabs]")) {
  const panels = [...group.children].filter((el) => el.matches("section.tab"));
  if (panels.length === 0) continue;
  const list = document.createElement("div");
  list.setAttribute("role", "tablist");
  if (group.dataset.tabsLabel) list.setAttribute("aria-label", group.dataset.tabsLabel);
  const tabs = panels.map((panel, i) => {
    if (!panel.id) panel.id = `panel-${Math.random().toString(36).slice(2, 10)}`;
    const id = `tab-${panel.id}`;
    const tab = document.createElement("button");
    tab.type = "button";
    tab.id = id;
    tab.setAttribute("role", "tab");
    tab.setAttribute("aria-controls", panel.id);
    tab.textContent = panel.dataset.tabLabel || `Tab ${i + 1}`;
    panel.setAttribute("role", "tabpanel");
    panel.setAttribute("aria-labelledby", id);
    panel.tabIndex = 0;
    list.append(tab);
    return tab;
  });
  const select = (at, focus) => {
    tabs.forEach((tab, i) => {
      tab.setAttribute("aria-selected", String(i === at));
      tab.tabIndex = i === at ? 0 : -1;
      panels[i].hidden = i !== at;
    });
    if (focus) tabs[at].focus();
  };
  tabs.forEach((tab, i) => {
    tab.addEventListener("click", () => select(i, false));
    tab.addEventListener("keydown", (event) => {
      const moves = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 };
      if (!(event.key in moves)) return;
      event.preventDefault();
      select((moves[event.key] + tabs.length) % tabs.length, true);
    });
  });
  group.prepend(list);
  group.classList.add("enhanced");
  const named = panels.findIndex((panel) => `#${panel.id}` === location.hash);
  select(Math.max(0, named), false);
}
