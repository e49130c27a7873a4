import type { Deps, WriteDeps } from "../deps.ts";
import { importPages, type ImportSummary } from "../importer/import_pages.ts";
import { readSources } from "../importer/read_sources.ts";
import { ensureWiki } from "./wikis.ts";

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
  await ensureWiki(deps.db, {
    id: "docs",
    title: "Service documentation",
    description:
      "How to use this service: connecting assistants, the MCP tools, the REST API, tokens, writing pages and self-hosting.",
    visibility: "public",
  });
  const contact = deps.config?.operatorContact
    ? `\`${deps.config.operatorContact}\``
    : "the operator of this service (none is configured here: ask whoever runs it)";
  const pages = (await readSources(dir.pathname)).map((page) =>
    "markdown" in page
      ? { ...page, markdown: page.markdown.replaceAll(CONTACT_PLACEHOLDER, contact) }
      : page
  );
  return await importPages(deps, "docs", pages, { prune: true, source: "seed" });
}
