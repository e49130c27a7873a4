import type { WriteDeps } from "../deps.ts";
import { importPages, type ImportSummary } from "../importer/import_pages.ts";
import { readSources } from "../importer/read_sources.ts";
import { ensureWiki } from "./wikis.ts";

/** The project's own user guide, imported as the public wiki `docs`. */
export const GUIDE_DIR = new URL("../../docs/guide/", import.meta.url);

/**
 * Creates or refreshes the public wiki `docs` from the user guide. Unchanged pages are
 * skipped by content hash, so this is cheap on every start; pages the guide dropped go.
 */
export async function seedDocs(deps: WriteDeps, dir: URL = GUIDE_DIR): Promise<ImportSummary> {
  await ensureWiki(deps.db, {
    id: "docs",
    title: "Service documentation",
    description:
      "How to use this service: connecting assistants, the MCP tools, the REST API, tokens, writing pages and self-hosting.",
    visibility: "public",
  });
  const pages = await readSources(dir.pathname);
  return await importPages(deps, "docs", pages, { prune: true, source: "seed" });
}
