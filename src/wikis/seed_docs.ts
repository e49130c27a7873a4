import type { Deps, WriteDeps } from "../deps.ts";
import { importPages, type ImportSummary } from "../importer/import_pages.ts";
import { readSourceSet } from "../importer/read_sources.ts";
import { DOCS_WIKI_ID, ensureWiki } from "./wikis.ts";

/** The project's own user guide, imported as the public wiki `docs`. */
export const GUIDE_DIR = new URL("../../docs/guide/", import.meta.url);

/** The guide's placeholder for the operator's contact (spec §8.3), filled in at seeding. */
export const CONTACT_PLACEHOLDER = "{{OPERATOR_CONTACT}}";

/**
 * Creates or refreshes the public wiki `docs` from the user guide, with `OPERATOR_CONTACT`
 * written where the guide says whom to ask. Unchanged pages are skipped by content hash, so
 * this is cheap on every start; pages the guide dropped go.
 */
export async function seedDocs(
  deps: WriteDeps & { config?: Pick<Deps["config"], "operatorContact"> },
  dir: URL = GUIDE_DIR,
): Promise<ImportSummary> {
  const { wiki } = await ensureWiki(deps.db, {
    id: DOCS_WIKI_ID,
    title: "Service documentation",
    description:
      "How to use this service: connecting assistants, the MCP tools, the REST API, tokens, writing pages and self-hosting.",
    visibility: "public",
  });
  // The seeded wiki is public and owned by nobody. A space someone made under this id (before
  // it was reserved, or while seeding was off) is theirs: never write the guide into it, and
  // never prune their pages.
  if (wiki.visibility !== "public" || wiki.owner_account_id || wiki.owner_team_id) {
    deps.log.error("docs wiki not seeded: the id belongs to another space", {
      wiki_id: DOCS_WIKI_ID,
      visibility: wiki.visibility,
    });
    return { added: 0, updated: 0, unchanged: 0, deleted: 0, failed: [] };
  }
  const contact = deps.config?.operatorContact
    ? `\`${deps.config.operatorContact}\``
    : "the operator of this service (none is configured here: ask whoever runs it)";
  const source = await readSourceSet(dir.pathname);
  const pages = source.pages.map((page) =>
    "markdown" in page
      ? { ...page, markdown: page.markdown.replaceAll(CONTACT_PLACEHOLDER, contact) }
      : page
  );
  return await importPages(deps, DOCS_WIKI_ID, pages, {
    prune: true,
    source: "seed",
    nav: source.nav,
  });
}
