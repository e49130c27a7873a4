import { Zip, ZipDeflate, ZipPassThrough } from "fflate";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { megabytes } from "../lib/megabytes.ts";
import { pathKey } from "../markdown/paths.ts";
import { writeSummary } from "../navigation/formats/gitbook.ts";
import type { NavDoc } from "../navigation/nav_doc.ts";
import { loadNavDoc } from "../navigation/space_nav_doc.ts";
import { attachmentHref } from "./attachments.ts";
import { selectAttachmentSizes, selectAttachmentSlice, selectExportSize } from "./store.ts";
import { selectPageTexts } from "../pages/mod.ts";

/** Pages read per query: a page holds up to 2 MB, so a batch stays under ~40 MB. */
const PAGE_BATCH = 20;

/**
 * Bytes fed to the zip between two turns of the event loop: compressing or checksumming one
 * such piece takes a few milliseconds, so `/healthz` and every other request are answered
 * between pieces however large the export.
 */
const PIECE = 256 * 1024;

/**
 * A wiki as a zip, streamed, in the shape its source had: every page at its file
 * (`<root><path>.md`, or the `.mdx` it came as), every file at its path in the source
 * (`img/team.png`), the source's nav and config files as written (a `SUMMARY.md` of the order
 * once owners reordered in the app), and the pages' links to the wiki's files made relative,
 * so the zip reads well on its own and imports back (the import form and `deno task import`)
 * into an identical wiki. Everything sits in one top folder, which the import drops.
 *
 * Nothing is held whole (issue 26.1): files are read a slice at a time and stored as they are
 * (images and PDFs are compressed already: deflating them again costs CPU for nothing), pages
 * are deflated in small batches, and the zip goes out as it is written, a piece at a time, with
 * the event loop free between pieces. An export over `exportBytes` (pages and files, before
 * compression) is refused before anything is read.
 */
export async function exportWikiZip(
  deps: Pick<Deps, "db" | "config">,
  wikiId: string,
): Promise<ReadableStream<Uint8Array>> {
  const size = await selectExportSize(deps.db, wikiId);
  const max = deps.config.files.exportBytes;
  if (size > max) {
    throw new AppError(
      "payload_too_large",
      `The wiki "${wikiId}" holds ${megabytes(size)} of pages and files: an export holds at most ${
        megabytes(max)
      } (EXPORT_MAX_MB)`,
    );
  }
  return ReadableStream.from(zipPieces(deps, wikiId));
}

async function* zipPieces(
  deps: Pick<Deps, "db">,
  wikiId: string,
): AsyncGenerator<Uint8Array> {
  const out: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, data) => {
    if (error) failure = error;
    else out.push(data);
  });
  const drain = function* () {
    if (failure) throw failure;
    yield* out.splice(0);
  };
  const nav = await loadNavDoc(deps.db, wikiId);
  const files = await selectAttachmentSizes(deps.db, wikiId);
  /** Where each file sits in the zip (its path in the source, or its name). */
  const fileAt = new Map(files.map((f) => [f.name, nav.assetPaths[f.name] ?? f.name]));
  for (const { name, size } of files) {
    const entry = new ZipPassThrough(`${wikiId}/${fileAt.get(name)}`);
    zip.add(entry);
    for (let at = 0; at < size; at += PIECE) {
      // A slice per query: a whole 5 MB value read at once holds the event loop (PGlite).
      const piece = await selectAttachmentSlice(deps.db, wikiId, name, at, PIECE) ??
        new Uint8Array(0);
      entry.push(piece, at + PIECE >= size);
      yield* drain();
      await turn();
    }
  }
  const encoder = new TextEncoder();
  for (const [name, text] of Object.entries(navFiles(nav))) {
    const entry = new ZipDeflate(`${wikiId}/${name}`, { level: 6 });
    zip.add(entry);
    for await (const _ of feed(entry, encoder.encode(text))) yield* drain();
  }
  for (let after: string | null = null;;) {
    const batch = await selectPageTexts(deps.db, wikiId, after, PAGE_BATCH);
    for (const page of batch) {
      const file = `${nav.root}${nav.pageFiles[pathKey(page.path)] ?? `${page.path}.md`}`;
      const entry = new ZipDeflate(`${wikiId}/${file}`, { level: 6 });
      zip.add(entry);
      const text = encoder.encode(relativeFileLinks(wikiId, file, page.markdown, fileAt));
      for await (const _ of feed(entry, text)) yield* drain();
    }
    if (batch.length < PAGE_BATCH) break;
    after = batch[batch.length - 1]!.path_key;
  }
  zip.end();
  yield* drain();
}

/** Pushes `bytes` into a zip entry a piece at a time, with a turn of the event loop after each. */
async function* feed(
  entry: ZipDeflate,
  bytes: Uint8Array,
): AsyncGenerator<void> {
  let at = 0;
  do {
    const end = Math.min(bytes.length, at + PIECE);
    entry.push(bytes.subarray(at, end), end === bytes.length);
    at = end;
    await turn();
    yield;
  } while (at < bytes.length);
}

/** A turn of the event loop: whatever waits (a `/healthz`, another request) runs now. */
function turn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
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
