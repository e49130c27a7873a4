import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { megabytes } from "../lib/megabytes.ts";
import { type ZipEntry, zipStream } from "../lib/zip_stream.ts";
import { pathKey } from "../markdown/paths.ts";
import { writeSummary } from "../navigation/formats/gitbook.ts";
import type { NavDoc } from "../markdown/nav_doc.ts";
import { loadNavDoc } from "../navigation/space_nav_doc.ts";
import { attachmentHref } from "./attachments.ts";
import { selectAttachmentSizes, selectAttachmentSlice, selectExportSize } from "./store.ts";
import { selectPageTexts } from "../pages/mod.ts";

/** Pages read per query: a page holds up to 2 MB, so a batch stays under ~40 MB. */
export const EXPORT_PAGE_BATCH = 20;

/**
 * Bytes of a file read per query. PGlite answers on the server's own thread, so one read is
 * time the event loop is held (a whole 5 MB file was seconds; 32 KB is ~3 ms). PostgreSQL's
 * driver receives a read as hex text and copies it a few times (chunks, their join, the text,
 * the bytes): at 128 KB a read those copies outgrew the collector, and a 100 MB export grew the
 * server's RSS by 115-128 MiB; at 32 KB, by 66-74 MiB (measured; 64 KB was worse on PGlite).
 */
const READ = 32 * 1024;

/** Types stored in the zip as they are: compressed already, deflating them again saves nothing. */
const COMPRESSED = new Set([
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "application/pdf",
  "application/zip",
  "application/gzip",
]);

/**
 * Every export (a live wiki's and a published version's) goes out here: refused with a 413
 * before anything is read when what it holds (`size`, pages and files before compression) is
 * over `EXPORT_MAX_MB`, else streamed as it is read (`zipStream`).
 */
export function exportZip(
  deps: Pick<Deps, "config">,
  what: { label: string; size: number; entries: AsyncIterable<ZipEntry> },
): ReadableStream<Uint8Array> {
  const max = deps.config.files.exportBytes;
  if (what.size > max) {
    throw new AppError(
      "payload_too_large",
      `${what.label} holds ${megabytes(what.size)} of pages and files: an export holds at most ${
        megabytes(max)
      } (EXPORT_MAX_MB)`,
    );
  }
  return zipStream(what.entries);
}

/**
 * A wiki as a zip, streamed, in the shape its source had: every page at its file
 * (`<root><path>.md`, or the `.mdx` it came as), every file at its path in the source
 * (`img/team.png`), the source's nav and config files as written (a `SUMMARY.md` of the order
 * once owners reordered in the app), and the pages' links to the wiki's files made relative,
 * so the zip reads well on its own and imports back (the import form and `deno task import`)
 * into an identical wiki. Everything sits in one top folder, which the import drops.
 *
 * Nothing is held whole (issue 26.1): files are read a slice at a time and stored as they are
 * (images and PDFs are compressed already), pages are read in small batches and deflated a
 * piece at a time, with the event loop free between pieces.
 */
export async function exportWikiZip(
  deps: Pick<Deps, "db" | "config">,
  wikiId: string,
): Promise<ReadableStream<Uint8Array>> {
  return exportZip(deps, {
    label: `The wiki "${wikiId}"`,
    size: await selectExportSize(deps.db, wikiId),
    entries: wikiEntries(deps, wikiId),
  });
}

async function* wikiEntries(deps: Pick<Deps, "db">, wikiId: string): AsyncGenerator<ZipEntry> {
  const nav = await loadNavDoc(deps.db, wikiId);
  const files = await selectAttachmentSizes(deps.db, wikiId);
  /** Where each file sits in the zip (its path in the source, or its name). */
  const fileAt = new Map(files.map((f) => [f.name, nav.assetPaths[f.name] ?? f.name]));
  for (const { name, size, content_type } of files) {
    yield {
      name: `${wikiId}/${fileAt.get(name)}`,
      bytes: fileSlices(deps, wikiId, name, size),
      stored: COMPRESSED.has(content_type),
    };
  }
  const encoder = new TextEncoder();
  for (const [name, text] of Object.entries(navFiles(nav))) {
    yield { name: `${wikiId}/${name}`, bytes: encoder.encode(text) };
  }
  for (let after: string | null = null;;) {
    const batch = await selectPageTexts(deps.db, wikiId, after, EXPORT_PAGE_BATCH);
    for (const page of batch) {
      const file = `${nav.root}${nav.pageFiles[pathKey(page.path)] ?? `${page.path}.md`}`;
      const text = relativeFileLinks(wikiId, file, page.markdown, fileAt);
      yield { name: `${wikiId}/${file}`, bytes: encoder.encode(text) };
    }
    if (batch.length < EXPORT_PAGE_BATCH) break;
    after = batch[batch.length - 1]!.path_key;
  }
}

/** A file's bytes, a slice per query (a whole 5 MB value read at once holds PGlite's thread). */
async function* fileSlices(
  deps: Pick<Deps, "db">,
  wikiId: string,
  name: string,
  size: number,
): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < size; at += READ) {
    const slice = await selectAttachmentSlice(deps.db, wikiId, name, at, READ);
    if (!slice || slice.length === 0) return; // deleted meanwhile: the zip holds what was read
    yield slice;
  }
}

/** A page's links to the wiki's own files, made relative to where the page sits in the zip. */
function relativeFileLinks(
  wikiId: string,
  file: string,
  markdown: string,
  fileAt: Map<string, string>,
): string {
  const prefix = attachmentHref(wikiId, "");
  const up = "../".repeat(file.split("/").length - 1);
  return markdown.replace(/\]\(<?([^)\s>]+)>?/g, (whole, target: string) => {
    const at = target.startsWith(prefix) ? fileAt.get(target.slice(prefix.length)) : undefined;
    return at ? `](${up}${at}` : whole;
  });
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
