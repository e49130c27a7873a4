import { createHash, type Hash } from "node:crypto";
import pako from "pako";
import { AppError } from "../errors.ts";

/**
 * What the objects of one fetched pack may inflate to: any one object, and all together.
 * Checked from each object's header, which states its inflated size before its data.
 */
export type PackLimits = { objectBytes: number; inflatedBytes: number };

/** The part of pako's streaming inflater used here (pako 1.x ships no types). */
type Inflater = {
  push(data: Uint8Array, mode: boolean): boolean;
  onData: (chunk: Uint8Array) => void;
  onEnd: (status: number) => void;
  ended: boolean;
  err: number;
  msg: string;
  strm: { avail_in: number };
};
const { Inflate } = pako as { Inflate: new (options?: { chunkSize?: number }) => Inflater };

/** Compressed bytes inflated between two turns of the event loop (at most ~16 MB out). */
const SLICE = 16 * 1024;

/** Past this, an object too large is not even inflated to learn its name. */
const NAME_CEILING = 1024 * 1024 * 1024;

const TYPES = ["", "commit", "tree", "blob", "tag", "", "ofs-delta", "ref-delta"] as const;

/**
 * Passes the answer to a `git-upload-pack` POST through unchanged while reading its pack as
 * it arrives (issue 26.2), so a pack is refused before the Git library holds or inflates any
 * of it: an object whose header states more than `objectBytes`, or objects that together
 * state more than `inflatedBytes` (a delta's result size is read from the delta's own
 * header). A refused object is named by its path when the pack's trees, which Git sends
 * before the blobs, reach it: it is inflated once more to learn its id, a slice at a time with
 * the output thrown away, so memory stays flat and the event loop free.
 *
 * The pack format gives no object's compressed length: finding where one ends means inflating
 * it. Here every object is inflated with its output dropped (commits and trees are kept, small
 * and needed to name files); nothing over the limits is ever held whole.
 */
export async function* guardPack(
  body: AsyncIterable<Uint8Array>,
  limits: PackLimits,
): AsyncGenerator<Uint8Array> {
  const pack = new PackReader(limits);
  const lines = new SideBand((data) => pack.write(data));
  for await (const chunk of body) {
    await lines.write(chunk);
    yield chunk;
  }
}

/**
 * Splits a protocol v1 answer into pkt-lines (a 4-hex-digit length, then the payload) and
 * hands the pack's bytes (side band 1) on; shallow, ACK/NAK lines and progress are skipped. A
 * server that sends the pack without side bands (raw after `NAK`) is handled too.
 */
class SideBand {
  #pending: Uint8Array = new Uint8Array(0);
  #raw = false;
  constructor(private readonly onPack: (data: Uint8Array) => Promise<void>) {}

  async write(chunk: Uint8Array): Promise<void> {
    if (this.#raw) return await this.onPack(chunk);
    let data = concat(this.#pending, chunk);
    while (data.length >= 4) {
      if (data[0] === 0x50 && data[1] === 0x41 && data[2] === 0x43 && data[3] === 0x4b) {
        this.#raw = true; // "PACK" where a length should be: no side bands
        this.#pending = new Uint8Array(0);
        return await this.onPack(data);
      }
      const length = parseInt(new TextDecoder().decode(data.subarray(0, 4)), 16);
      if (!(length >= 4)) { // flush (0000), delimiter (0001), end (0002), or not a length
        data = data.subarray(4);
        continue;
      }
      if (data.length < length) break;
      const payload = data.subarray(4, length);
      data = data.subarray(length);
      if (payload[0] === 1) await this.onPack(payload.subarray(1));
    }
    this.#pending = data.slice();
  }
}

/** One object being inflated: what its header said, and what is done with its bytes. */
type Current = {
  type: number;
  size: number;
  inflater: Inflater;
  /** Kept output (commits, trees, the start of a delta), else null. */
  kept: Uint8Array[] | null;
  hash: Hash | null;
  oversized: boolean;
  out: number;
};

/** Reads a pack stream: its header, then each object's header and zlib stream, in turn. */
class PackReader {
  #head: Uint8Array = new Uint8Array(0);
  #started = false;
  #count = 0;
  #seen = 0;
  #total = 0;
  #current: Current | null = null;
  #commitTree: string | null = null;
  #trees = new Map<string, Uint8Array>();
  constructor(private readonly limits: PackLimits) {}

  async write(data: Uint8Array): Promise<void> {
    let input = data;
    while (input.length > 0) {
      if (this.#started && this.#seen >= this.#count) return; // the pack's checksum
      if (this.#current) {
        input = input.subarray(await this.#inflate(input));
        continue;
      }
      this.#head = concat(this.#head, input);
      input = new Uint8Array(0);
      if (!this.#started) {
        if (this.#head.length < 12) return;
        this.#count = new DataView(this.#head.buffer, this.#head.byteOffset).getUint32(8);
        this.#started = true;
        this.#head = this.#head.slice(12);
      }
      const header = readObjectHeader(this.#head);
      if (!header) return;
      input = this.#head.subarray(header.length);
      this.#head = new Uint8Array(0);
      this.#begin(header.type, header.size);
    }
  }

  #begin(type: number, size: number): void {
    const delta = type === 6 || type === 7;
    const oversized = size > this.limits.objectBytes;
    if (oversized && (delta || size > NAME_CEILING)) throw this.#tooLarge(null, size);
    if (!delta) this.#countInflated(size, oversized);
    const keep = type === 1 || type === 2 || delta;
    const hash = type === 1 || type === 2 || oversized ? createHash("sha1") : null;
    hash?.update(`${TYPES[type]} ${size}\0`);
    const inflater = new Inflate({ chunkSize: 64 * 1024 });
    const current: Current = {
      type,
      size,
      inflater,
      kept: keep ? [] : null,
      hash,
      oversized,
      out: 0,
    };
    inflater.onData = (chunk) => {
      current.out += chunk.length;
      current.hash?.update(chunk);
      // A delta's sizes sit in its first bytes: nothing more of it is kept.
      if (current.kept && (!delta || current.out - chunk.length < 32)) current.kept.push(chunk);
    };
    inflater.onEnd = () => {};
    this.#current = current;
  }

  /** Feeds one object's zlib stream; returns how many bytes of `input` it took. */
  async #inflate(input: Uint8Array): Promise<number> {
    const current = this.#current!;
    let used = 0;
    while (used < input.length) {
      const slice = input.subarray(used, used + SLICE);
      const before = current.out;
      current.inflater.push(slice, false);
      if (current.inflater.err) {
        throw new AppError(
          "sync_failed",
          `The repository's pack is corrupt: ${current.inflater.msg}`,
        );
      }
      if (current.inflater.ended) {
        used += slice.length - current.inflater.strm.avail_in;
        this.#end(current);
        return used;
      }
      used += slice.length;
      if (current.out - before > 1024 * 1024) await new Promise((r) => setTimeout(r, 0));
    }
    return used;
  }

  #end(current: Current): void {
    this.#current = null;
    this.#seen++;
    const content = current.kept ? concat(...current.kept) : null;
    if (current.type === 6 || current.type === 7) {
      const resultSize = deltaResultSize(content!);
      if (resultSize > this.limits.objectBytes) throw this.#tooLarge(null, resultSize);
      this.#countInflated(resultSize, false);
      return;
    }
    const oid = current.hash?.digest("hex") ?? null;
    if (current.oversized) throw this.#tooLarge(oid, current.size);
    if (current.type === 1 && this.#commitTree === null) {
      this.#commitTree = /^tree ([0-9a-f]{40})/.exec(new TextDecoder().decode(content!))?.[1] ??
        null;
    }
    if (current.type === 2 && oid) this.#trees.set(oid, content!);
  }

  #countInflated(size: number, oversized: boolean): void {
    this.#total += size;
    if (!oversized && this.#total > this.limits.inflatedBytes) {
      throw new AppError(
        "sync_failed",
        `The repository inflates to over ${mb(this.limits.inflatedBytes)} (its objects together, ` +
          `in the commit fetched): a sync reads at most ${mb(this.limits.inflatedBytes)}`,
      );
    }
  }

  #tooLarge(oid: string | null, size: number): AppError {
    const path = oid ? this.#pathOf(oid) : null;
    const what = path ? `The file "${path}"` : oid ? `An object (${oid})` : "An object";
    return new AppError(
      "sync_failed",
      `${what} of the repository is ${mb(size)} inflated: a sync takes files of at most ${
        mb(this.limits.objectBytes)
      } each`,
    );
  }

  /** The path of a blob in the fetched commit, from the trees read so far. */
  #pathOf(oid: string): string | null {
    const walk = (treeOid: string, prefix: string, depth: number): string | null => {
      const tree = this.#trees.get(treeOid);
      if (!tree || depth > 64) return null;
      for (const entry of treeEntries(tree)) {
        const path = prefix + entry.name;
        if (entry.oid === oid) return path;
        if (entry.mode === "40000") {
          const found = walk(entry.oid, `${path}/`, depth + 1);
          if (found) return found;
        }
      }
      return null;
    };
    return this.#commitTree ? walk(this.#commitTree, "", 0) : null;
  }
}

/** An object's type and size from its header, and the header's length (deltas' bases included). */
function readObjectHeader(
  bytes: Uint8Array,
): { type: number; size: number; length: number } | null {
  let at = 0;
  if (bytes.length < 1) return null;
  let byte = bytes[at++]!;
  const type = (byte >> 4) & 7;
  let size = byte & 15;
  let shift = 4;
  while (byte & 0x80) {
    if (at >= bytes.length) return null;
    byte = bytes[at++]!;
    size += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  }
  if (type === 6) {
    do {
      if (at >= bytes.length) return null;
      byte = bytes[at++]!;
    } while (byte & 0x80);
  } else if (type === 7) {
    at += 20;
    if (at > bytes.length) return null;
  }
  if (type === 0 || type === 5) {
    throw new AppError(
      "sync_failed",
      `The repository's pack holds an object of unknown type ${type}`,
    );
  }
  return { type, size, length: at };
}

/** The size a delta's result has: the second varint of the delta's data. */
function deltaResultSize(delta: Uint8Array): number {
  let at = 0;
  const varint = () => {
    let value = 0;
    let shift = 0;
    let byte;
    do {
      byte = delta[at++] ?? 0;
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80 && at < delta.length);
    return value;
  };
  varint();
  return varint();
}

/** The entries of a tree object: `<mode> <name>\0<20-byte id>` each. */
function* treeEntries(tree: Uint8Array): Generator<{ mode: string; name: string; oid: string }> {
  const decoder = new TextDecoder();
  let at = 0;
  while (at < tree.length) {
    const space = tree.indexOf(0x20, at);
    const nul = tree.indexOf(0, space);
    if (space < 0 || nul < 0 || nul + 21 > tree.length) return;
    const oid = [...tree.subarray(nul + 1, nul + 21)].map((b) => b.toString(16).padStart(2, "0"))
      .join("");
    yield {
      mode: decoder.decode(tree.subarray(at, space)),
      name: decoder.decode(tree.subarray(space + 1, nul)),
      oid,
    };
    at = nul + 21;
  }
}

function concat(...parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function mb(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`
    : `${bytes} bytes`;
}
