/**
 * The editor's keys (`/assets/toolbar.js`, `/assets/nav.js`, the `[[` suggestions): one list for the editor's own
 * Shortcuts box and the site's `/shortcuts` page, so neither forgets one.
 */
export const EDITOR_KEYS: { keys: string[]; what: string }[] = [
  { keys: ["Ctrl/⌘", "S"], what: "Save the page" },
  { keys: ["Ctrl/⌘", "B"], what: "Bold" },
  { keys: ["Ctrl/⌘", "I"], what: "Italic" },
  { keys: ["Ctrl/⌘", "K"], what: "Link" },
  { keys: ["Ctrl/⌘", "E"], what: "Code" },
  {
    keys: ["[["],
    what: "Link a page: type part of its title, then Enter or Tab (Esc closes the list)",
  },
];
