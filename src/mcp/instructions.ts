/** How to use the read tools, for every endpoint's server instructions. */
const READ_GUIDE = [
  "`search` finds pages by meaning and words and returns the best passage of each, with its section.",
  "`get_page` reads a page by path or url, `Page#Section` from a section (long pages come in slices: pass `next_offset` back as `offset`); `fetch` reads a search result by its `id`.",
  "`list_pages` lists the pages as a tree, and one page's headings.",
  "`neighbors` lists the pages a page links to (including pages not written yet) and the pages linking to it.",
  "`ask` answers a question from the pages in a few sentences with numbered citations, and says where coverage is thin; " +
  "if it reports `unsupported`, the wiki does not answer the question: do not guess from it.",
  "Cite pages by their `url`. Search before assuming a page exists; page paths are case-insensitive.",
  "If a page is wrong, outdated, unclear or missing, tell its owners with `report_problem`.",
].join(" ");

/** Server instructions of the hub endpoint. */
export const HUB_INSTRUCTIONS =
  "This server holds public wikis. Call `list_wikis` first, then pass a wiki's id " +
  "as `wiki` to the other tools; switch wikis by changing that parameter. " + READ_GUIDE;

/** Server instructions of a one-wiki endpoint, with the wiki's own instructions appended. */
export function wikiInstructions(
  wiki: { id: string; title: string; instructions: string | null },
): string {
  const own = wiki.instructions?.trim()
    ? `\n\nFrom the wiki's owners: ${wiki.instructions.trim()}`
    : "";
  return `This server holds the wiki "${wiki.title}" (${wiki.id}). ${READ_GUIDE}${own}`;
}

/** Server instructions of the private endpoint. */
export const PRIVATE_INSTRUCTIONS =
  "This server holds your private spaces. `my_spaces` lists them; pass a " +
  "space's id as `space` (needed when you can reach more than one). " + READ_GUIDE +
  " After you use a page in an answer, call `confirm_use` with its path and revision so its owners see what helps." +
  " To change a page or add one, `propose_edit` sends markdown with the revision it starts from: the owners review it" +
  " (it needs a token that may propose).";
