import { zipSync } from "fflate";
import type { Deps } from "../deps.ts";
import { pageTexts } from "../pages/list_pages.ts";
import { attachmentHref } from "./attachments.ts";
import { selectAttachmentBatch } from "./store.ts";

const BATCH = 500;

/**
 * A wiki as a zip: `<id>/<path>.md` for every page and `<id>/<name>` for every file, with the
 * pages' links to the wiki's files made relative (`../chart.png`), so the zip reads well on
 * its own and imports back (the import form and `deno task import`) into an identical wiki.
 * Everything sits in one top folder, which the import drops.
 */
export async function exportWikiZip(deps: Pick<Deps, "db">, wikiId: string): Promise<Uint8Array> {
  const encoder = new TextEncoder();
  const entries: Record<string, Uint8Array> = {};
  const names = new Set<string>();
  for (let after: string | null = null;;) {
    const batch = await selectAttachmentBatch(deps.db, wikiId, after, BATCH);
    for (const file of batch) {
      entries[`${wikiId}/${file.name}`] = file.bytes;
      names.add(file.name);
    }
    if (batch.length < BATCH) break;
    after = batch[batch.length - 1]!.name;
  }
  const prefix = attachmentHref(wikiId, "");
  for (let after: string | null = null;;) {
    const batch = await pageTexts(deps.db, wikiId, after, BATCH);
    for (const page of batch) {
      const depth = page.path.split("/").length - 1;
      const up = "../".repeat(depth);
      const markdown = page.markdown.replace(
        /\]\(<?([^)\s>]+)>?/g,
        (whole, target: string) =>
          target.startsWith(prefix) && names.has(target.slice(prefix.length))
            ? `](${up}${target.slice(prefix.length)}`
            : whole,
      );
      entries[`${wikiId}/${page.path}.md`] = encoder.encode(markdown);
    }
    if (batch.length < BATCH) break;
    after = batch[batch.length - 1]!.path_key;
  }
  return zipSync(entries, { level: 6 });
}
