import { Zip, ZipDeflate, ZipPassThrough } from "fflate";

/** One file of a streamed zip. */
export type ZipEntry = {
  /** Its path in the zip. */
  name: string;
  /** Its bytes: whole, or a piece at a time as they are read (a file from the database). */
  bytes: Uint8Array | AsyncIterable<Uint8Array>;
  /**
   * Stored as it is instead of deflated: images, PDFs and archives are compressed already,
   * so deflating them again costs CPU and saves nothing.
   */
  stored?: boolean;
};

/**
 * Bytes fed to the zip at once: deflating or checksumming one such piece takes a millisecond
 * or two, the longest the zip itself holds the event loop.
 */
const PIECE = 64 * 1024;

/** Work done between two turns of the event loop, at most (ms). */
const SLICE_MS = 8;

/**
 * A zip of `entries`, streamed (issue 26.1): each entry is written as its bytes come, deflated
 * or stored a piece at a time, and the zip goes out as it is written; the stream is pulled,
 * so nothing is read ahead of the client. Every few milliseconds of work the event loop gets
 * a turn, so `/healthz` and every other request are answered meanwhile however large the zip.
 * PGlite answers queries on this thread, so a read from it is such work too.
 */
export function zipStream(entries: AsyncIterable<ZipEntry>): ReadableStream<Uint8Array> {
  return ReadableStream.from(zipPieces(entries));
}

async function* zipPieces(entries: AsyncIterable<ZipEntry>): AsyncGenerator<Uint8Array> {
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
  const yielder = turns();
  for await (const { name, bytes, stored } of entries) {
    const entry = stored ? new ZipPassThrough(name) : new ZipDeflate(name, { level: 6 });
    zip.add(entry);
    for await (const read of bytes instanceof Uint8Array ? [bytes] : bytes) {
      for (let at = 0; at < read.length; at += PIECE) {
        entry.push(read.subarray(at, at + PIECE), false);
        yield* drain();
        await yielder();
      }
    }
    entry.push(new Uint8Array(0), true);
    yield* drain();
    await yielder();
  }
  zip.end();
  yield* drain();
}

/**
 * A function to await between pieces of work: it gives the event loop a turn once `SLICE_MS`
 * passed since the last one. (`setTimeout`, not `setImmediate`: Deno runs immediates before
 * it polls for I/O, so a chain of them starves every other request.)
 */
function turns(): () => Promise<void> {
  let last = performance.now();
  return async () => {
    if (performance.now() - last < SLICE_MS) return;
    await new Promise((resolve) => setTimeout(resolve, 0));
    last = performance.now();
  };
}
