/**
 * Run by tests/lexical_memory_test.ts with `--v8-flags=--expose-gc`: builds the lexical index
 * of this repository's docs (a paragraph a chunk) both ways the service does (posting by
 * posting, as the catch-up adds them; term by term, as a build from the packed postings does),
 * and prints for each the memory it took (heap plus external, after a full GC) against
 * `indexBytes`.
 */
import {
  addChunk,
  addPackedPostings,
  addPosting,
  emptyIndex,
  indexBytes,
  type LexicalIndex,
  termCount,
  trimBlock,
} from "../src/search/lexical_index.ts";
import { tokenize } from "../src/text/terms.ts";

const gc = (globalThis as unknown as { gc: () => void }).gc;
const used = () => {
  gc();
  gc();
  const m = Deno.memoryUsage();
  return m.heapUsed + m.external;
};

const chunks: Map<string, number>[] = [];
for (const dir of ["docs", "docs/guide"]) {
  for (const entry of [...Deno.readDirSync(dir)].sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isFile || !entry.name.endsWith(".md")) continue;
    for (const paragraph of Deno.readTextFileSync(`${dir}/${entry.name}`).split(/\n\s*\n/)) {
      const counts = new Map<string, number>();
      for (const term of tokenize(paragraph)) counts.set(term, (counts.get(term) ?? 0) + 1);
      if (counts.size > 0) chunks.push(counts);
    }
  }
}

/** Posting by posting. */
function incremental(): LexicalIndex {
  const index = emptyIndex("docs", 1, chunks.length);
  chunks.forEach((counts, n) => {
    const local = addChunk(index, n + 1, n + 1, counts.size);
    for (const [term, tf] of counts) addPosting(index, term, local, 0, tf);
  });
  return index;
}

/** Term by term, each list allocated once. */
function packed(): LexicalIndex {
  const lists = new Map<string, [number, number][]>();
  chunks.forEach((counts, n) => {
    for (const [term, tf] of counts) {
      let list = lists.get(term);
      if (!list) lists.set(term, list = []);
      list.push([n, tf]);
    }
  });
  const index = emptyIndex("docs", 1, chunks.length);
  chunks.forEach((counts, n) => addChunk(index, n + 1, n + 1, counts.size));
  for (const [term, list] of lists) {
    addPackedPostings(index, term, list.length, (i) => list[i]![0], () => 0, (i) => list[i]![1]);
  }
  lists.clear();
  trimBlock(index);
  return index;
}

const out: Record<string, unknown> = { chunks: chunks.length };
const kept: LexicalIndex[] = []; // each index stays alive while the next one is measured
for (const [name, build] of [["incremental", incremental], ["packed", packed]] as const) {
  // Three builds, the median taken: on a loaded machine one measurement came out at half the
  // others (memory the previous build let go of, counted free during this one).
  const measured: number[] = [];
  for (let i = 0; i < 3; i++) {
    const before = used();
    const index = build();
    measured.push(used() - before);
    kept.push(index);
  }
  const index = kept.at(-1)!;
  out[name] = {
    terms: termCount(index),
    postings: index.postings,
    measured: measured.sort((a, b) => a - b)[1],
    estimated: indexBytes(index),
  };
}
console.log(JSON.stringify(out));
