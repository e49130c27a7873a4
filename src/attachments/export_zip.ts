import { zipSync } from "fflate";
import type { Deps } from "../deps.ts";
import { pathKey } from "../markdown/paths.ts";
import { writeSummary } from "../navigation/formats/gitbook.ts";
import type { NavDoc } from "../navigation/nav_doc.ts";
import { loadNavDoc } from "../navigation/space_nav_doc.ts";
import { pageTexts } from "../pages/list_pages.ts";
import { attachmentHref } from "./attachments.ts";
import { selectAttachmentBatch } from "./store.ts";

const BATCH = 500;

/**
 * A wiki as a zip, in the shape its source had: every page at its file (`<root><path>.md`, or
 * the `.mdx` it came as), every file at its path in the source (`img/team.png`), the source's
 * nav and config files as written (a `SUMMARY.md` of the order once owners reordered in the
 * app), and the pages' links to the wiki's files made relative, so the zip reads well on its
 * own and imports back (the import form and `deno task import`) into an identical wiki.
 * Everything sits in one top folder, which the import drops.
 */
export async function exportWikiZip(deps: Pick<Deps, "db">, wikiId: string): Promise<Uint8Array> {
  const encoder = new TextEncoder();
  const nav = await loadNavDoc(deps.db, wikiId);
  const entries: Record<string, Uint8Array> = {};
  const fileAt = new Map<string, string>();
  for (let after: string | null = null;;) {
    const batch = await selectAttachmentBatch(deps.db, wikiId, after, BATCH);
    for (const file of batch) {
      const at = nav.assetPaths[file.name] ?? file.name;
      entries[`${wikiId}/${at}`] = file.bytes;
      fileAt.set(file.name, at);
    }
    if (batch.length < BATCH) break;
    after = batch[batch.length - 1]!.name;
  }
  for (const [name, text] of Object.entries(navFiles(nav))) {
    entries[`${wikiId}/${name}`] = encoder.encode(text);
  }
  const prefix = attachmentHref(wikiId, "");
  for (let after: string | null = null;;) {
    const batch = await pageTexts(deps.db, wikiId, after, BATCH);
    for (const page of batch) {
      const file = `${nav.root}${nav.pageFiles[pathKey(page.path)] ?? `${page.path}.md`}`;
      const up = "../".repeat(file.split("/").length - 1);
      const markdown = page.markdown.replace(
        /\]\(<?([^)\s>]+)>?/g,
        (whole, target: string) => {
          const at = target.startsWith(prefix) ? fileAt.get(target.slice(prefix.length)) : null;
          return at ? `](${up}${at}` : whole;
        },
      );
      entries[`${wikiId}/${file}`] = encoder.encode(markdown);
    }
    if (batch.length < BATCH) break;
    after = batch[batch.length - 1]!.path_key;
  }
  return zipSync(entries, { level: 6 });
}

/**
 * The nav and config files of the export: as the source had them, until owners reorder in
 * the app; then the order as a GitBook `SUMMARY.md` (with a `.gitbook.yaml` naming the root).
 */
export function navFiles(nav: NavDoc): Record<string, string> {
  const files = { ...nav.files };
  if (!nav.edited) return files;
  const fileOf = (page: string) => nav.pageFiles[pathKey(page)] ?? `${page}.md`;
  files[`${nav.root}SUMMARY.md`] = writeSummary(nav.items, fileOf);
  if (nav.root) files[".gitbook.yaml"] = `root: ./${nav.root}\n`;
  return files;
}
