import { EXPORT_PAGE_BATCH, exportZip } from "../attachments/export_zip.ts";
import type { Deps } from "../deps.ts";
import type { ZipEntry } from "../lib/zip_stream.ts";
import { selectVersionExportSize } from "./store.ts";
import { versionPages } from "./version_pages.ts";
import type { Version } from "./versions.ts";

/**
 * A published version of a wiki as a zip of its pages' markdown at their pinned revisions
 * (`<id>@<version>/<path>.md`), through the live export's own path (`exportZip`): refused
 * past `EXPORT_MAX_MB`, read in small batches and streamed, the event loop free between pieces.
 */
export async function exportVersionZip(
  deps: Pick<Deps, "db" | "config">,
  version: Version,
): Promise<ReadableStream<Uint8Array>> {
  return exportZip(deps, {
    label: `Version "${version.name}" of the wiki "${version.wikiId}"`,
    size: await selectVersionExportSize(deps.db, version.id),
    entries: versionEntries(deps, version),
  });
}

async function* versionEntries(
  deps: Pick<Deps, "db">,
  version: Version,
): AsyncGenerator<ZipEntry> {
  const encoder = new TextEncoder();
  const top = `${version.wikiId}@${version.name}`;
  for (let after: string | null = null;;) {
    const batch = await versionPages(deps.db, version, {
      afterKey: after,
      limit: EXPORT_PAGE_BATCH,
      prefix: null,
    });
    for (const page of batch) {
      yield { name: `${top}/${page.path}.md`, bytes: encoder.encode(page.markdown) };
    }
    if (batch.length < EXPORT_PAGE_BATCH) break;
    after = batch[batch.length - 1]!.path_key;
  }
}
