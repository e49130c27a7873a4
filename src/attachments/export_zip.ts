import { Zip, ZipDeflate, ZipPassThrough } from "fflate";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { pageTexts } from "../pages/list_pages.ts";
import { attachmentHref } from "./attachments.ts";
import { selectAttachmentSizes, selectAttachmentSlice, selectExportSize } from "./store.ts";

/** Pages read per query: a page holds up to 2 MB, so a batch stays under ~40 MB. */
const PAGE_BATCH = 20;

/**
 * Bytes fed to the zip between two turns of the event loop: compressing or checksumming one
 * such piece takes a few milliseconds, so `/healthz` and every other request are answered
 * between pieces however large the export.
 */
const PIECE = 256 * 1024;

/**
 * A wiki as a zip, streamed: `<id>/<path>.md` for every page and `<id>/<name>` for every
 * file, with the pages' links to the wiki's files made relative (`../chart.png`), so the zip
 * reads well on its own and imports back (the import form and `deno task import`) into an
 * identical wiki. Everything sits in one top folder, which the import drops.
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
  const files = await selectAttachmentSizes(deps.db, wikiId);
  for (const { name, size } of files) {
    const entry = new ZipPassThrough(`${wikiId}/${name}`);
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
  const known = new Set(files.map((f) => f.name));
  const encoder = new TextEncoder();
  for (let after: string | null = null;;) {
    const batch = await pageTexts(deps.db, wikiId, after, PAGE_BATCH);
    for (const page of batch) {
      const entry = new ZipDeflate(`${wikiId}/${page.path}.md`, { level: 6 });
      zip.add(entry);
      const text = encoder.encode(relativeFileLinks(wikiId, page, known));
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
  page: { path: string; markdown: string },
  names: Set<string>,
): string {
  const prefix = attachmentHref(wikiId, "");
  const up = "../".repeat(page.path.split("/").length - 1);
  return page.markdown.replace(
    /\]\(<?([^)\s>]+)>?/g,
    (whole, target: string) =>
      target.startsWith(prefix) && names.has(target.slice(prefix.length))
        ? `](${up}${target.slice(prefix.length)}`
        : whole,
  );
}

/** Bytes as megabytes for a message, e.g. "12.5 MB". */
export function megabytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}
