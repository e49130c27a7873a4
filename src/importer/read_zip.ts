import { Inflate, strFromU8 } from "fflate";

/** How much a zip may hold once inflated; over any of them, the archive is refused. */
export type ZipLimits = {
  /** Most bytes one entry may inflate to. */
  entryBytes: number;
  /** Most bytes all the entries read may inflate to, together. */
  totalBytes: number;
  /** Most entries read from one archive. */
  entries: number;
};

/**
 * The limits every import applies (REST, web and `deno task import`): an entry holds one page,
 * at most 2,000,000 characters (`MAX_MARKDOWN_CHARS`), 8 MiB of UTF-8 with room to spare.
 */
export const ZIP_LIMITS: ZipLimits = {
  entryBytes: 8 * 1024 * 1024,
  totalBytes: 128 * 1024 * 1024,
  entries: 10_000,
};

/** An archive refused for passing one of the `ZipLimits`. */
export class ZipLimitError extends Error {
  override name = "ZipLimitError";
  /** Bytes the archive had inflated to when it was refused (at most a limit and a slice). */
  constructor(message: string, readonly inflated: number) {
    super(message);
  }
}

/** Compressed bytes fed to the inflater at a time: deflate expands at most ~1032:1, so ~4 MiB out. */
const SLICE = 4 * 1024;

/**
 * The entries `wanted` of a zip, inflated, by name. Reads the central directory and inflates
 * each entry in small slices, counting as it goes: an entry or archive that would inflate past
 * `limits` is refused before more than the limit (and one slice) is in memory, and the bytes
 * an over-limit entry inflated count against the total too.
 *
 * @throws Error naming the entry and the limit it passed, or why the archive cannot be read.
 */
export function inflateZip(
  bytes: Uint8Array,
  wanted: (name: string) => boolean,
  limits: ZipLimits = ZIP_LIMITS,
): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  let total = 0;
  for (const entry of centralDirectory(bytes)) {
    if (entry.name.endsWith("/") || !wanted(entry.name)) continue;
    if (files.size >= limits.entries) {
      throw new ZipLimitError(
        `The archive holds more than ${limits.entries} markdown files, the most one import reads (refused at entry "${entry.name}")`,
        total,
      );
    }
    const tooBig = () =>
      new ZipLimitError(
        `Entry "${entry.name}" inflates to more than ${limits.entryBytes} bytes, the most one entry may hold`,
        total,
      );
    const overTotal = () =>
      new ZipLimitError(
        `The archive inflates to more than ${limits.totalBytes} bytes (at entry "${entry.name}"), the most one import may hold`,
        total,
      );
    // The sizes an archive declares may lie: this only saves inflating an honest big entry.
    if (entry.size > limits.entryBytes) throw tooBig();
    const data = entryData(bytes, entry);
    const chunks: Uint8Array[] = [];
    let size = 0;
    const take = (chunk: Uint8Array) => {
      size += chunk.length;
      total += chunk.length;
      if (size > limits.entryBytes) throw tooBig();
      if (total > limits.totalBytes) throw overTotal();
      chunks.push(chunk);
    };
    if (entry.method === 0) take(data);
    else if (entry.method === 8) {
      const inflater = new Inflate((chunk) => take(chunk));
      try {
        for (let at = 0; at < data.length; at += SLICE) {
          inflater.push(data.subarray(at, at + SLICE), at + SLICE >= data.length);
        }
        if (data.length === 0) inflater.push(new Uint8Array(0), true);
      } catch (error) {
        if (error instanceof ZipLimitError) throw error;
        throw new Error(`Entry "${entry.name}" cannot be inflated: ${(error as Error).message}`);
      }
    } else {
      throw new Error(
        `Entry "${entry.name}" uses compression method ${entry.method}: not supported`,
      );
    }
    files.set(entry.name, concat(chunks, size));
  }
  return files;
}

type Entry = { name: string; method: number; size: number; compressed: number; offset: number };

/** The names and declared (inflated) sizes of a zip's entries, folders left out. */
export function zipEntries(bytes: Uint8Array): { name: string; size: number }[] {
  return [...centralDirectory(bytes)].filter((e) => !e.name.endsWith("/"))
    .map((e) => ({ name: e.name, size: e.size }));
}

/** The entries the archive's central directory lists. */
function* centralDirectory(bytes: Uint8Array): Generator<Entry> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = bytes.length - 22;
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) {
    if (bytes.length - end > 65_557) end = -1;
    else end--;
  }
  if (end < 0) throw new Error("The archive cannot be read as a zip: no end of central directory");
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) {
      throw new Error("The archive cannot be read as a zip: its central directory is damaged");
    }
    const flags = view.getUint16(at + 8, true);
    const nameLength = view.getUint16(at + 28, true);
    const next = at + 46 + nameLength + view.getUint16(at + 30, true) +
      view.getUint16(at + 32, true);
    yield {
      // Bit 11: the name is UTF-8; otherwise read as fflate does (one byte a character).
      name: strFromU8(bytes.subarray(at + 46, at + 46 + nameLength), !(flags & 0x800)),
      method: view.getUint16(at + 10, true),
      compressed: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      offset: view.getUint32(at + 42, true),
    };
    at = next;
  }
}

/** An entry's compressed bytes, found through its local header. */
function entryData(bytes: Uint8Array, entry: Entry): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const header = entry.offset;
  if (header + 30 > bytes.length || view.getUint32(header, true) !== 0x04034b50) {
    throw new Error(`Entry "${entry.name}" cannot be read: its local header is missing`);
  }
  const start = header + 30 + view.getUint16(header + 26, true) +
    view.getUint16(header + 28, true);
  if (start + entry.compressed > bytes.length) {
    throw new Error(`Entry "${entry.name}" cannot be read: the archive is cut short`);
  }
  return bytes.subarray(start, start + entry.compressed);
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
