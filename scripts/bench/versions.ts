/**
 * `deno run -A scripts/bench/versions.ts [--pages N] [--versions V]` (also run by `deno task
 * bench`'s versions step): a synthetic wiki of N pages (five sections each, about one chunk
 * each), published as V versions with 2% of the pages rewritten between two of them; then
 * search latency at concurrency 8 in the live pages, in the newest version and in the oldest
 * (the one with most pages changed since), and the bytes of the live in-memory index against
 * the bytes the V versions add to it. Prints one JSON object.
 */
import { parseArgs } from "node:util";
import { loadConfig } from "../../src/config/config.ts";
import { openThrowawayStore } from "../../src/db/throwaway.ts";
import { importPages } from "../../src/importer/import_pages.ts";
import { createLog } from "../../src/lib/log.ts";
import { createEmbedder } from "../../src/search/create_embedder.ts";
import { lexicalCacheSize } from "../../src/search/lexical_cache.ts";
import { searchWikis } from "../../src/search/search_wikis.ts";
import { versionViewBytes } from "../../src/versions/version_search.ts";
import { publishVersion } from "../../src/versions/versions.ts";
import { createWiki } from "../../src/wikis/wikis.ts";
import { measureLatency } from "./latency.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    pages: { type: "string", default: "2000" },
    versions: { type: "string", default: "10" },
  },
});

/** A deterministic vocabulary: 4,000 made-up words, so queries hit a few dozen chunks each. */
const WORDS = Array.from({ length: 4_000 }, (_, i) => `w${(i * 7919 % 4000).toString(36)}x`);
let seed = 7;
const rand = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
const words = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(rand() ** 2 * 4000)]);

function page(i: number, edition: number) {
  const sections = Array.from(
    { length: 5 },
    (_, s) => `## Part ${s} ${words(2).join(" ")}\n\n${words(60).join(" ")} edition ${edition}.\n`,
  );
  return `# Page ${i}\n\n${sections.join("\n")}`;
}

export async function benchVersions(pages: number, versions: number) {
  const config = loadConfig({ ...Deno.env.toObject(), LOG_LEVEL: "error" });
  const { db, drop } = await openThrowawayStore(config);
  const deps = {
    db,
    config,
    log: createLog("error"),
    embedder: await createEmbedder(config.embedding),
  };
  try {
    await createWiki(db, { id: "bench", visibility: "public" });
    const write = (ids: number[], edition: number) =>
      importPages(
        deps,
        "bench",
        ids.map((i) => ({ name: `P${i}.md`, path: `P${i}`, markdown: page(i, edition) })),
        { source: "bench" },
      );
    await write(Array.from({ length: pages }, (_, i) => i), 0);
    for (let v = 1; v <= versions; v++) {
      await publishVersion(db, "bench", { name: `v${v}` }, null);
      const changed = Array.from(
        { length: Math.ceil(pages / 50) },
        () => Math.floor(rand() * pages),
      );
      await write([...new Set(changed)], v);
    }
    const queries = Array.from({ length: 400 }, () => words(2).join(" "));
    const run = (version?: string) =>
      measureLatency(
        queries,
        (query) => searchWikis(deps, ["bench"], { query, limit: 10, version }),
        8,
        { warmup: 20 },
      );
    const live = await run();
    const newest = await run(`v${versions}`);
    const oldest = await run("v1");
    const index = lexicalCacheSize(db).find((w) => w.wiki === "bench")!;
    const chunks = (await db<{ n: number }>`SELECT count(*)::int AS n FROM chunks`)[0]!.n;
    return {
      pages,
      chunks,
      versions,
      changed_per_version: Math.ceil(pages / 50),
      search_c8: { live, newest_version: newest, oldest_version: oldest },
      oldest_vs_live_p50: Math.round(oldest.p50_ms / live.p50_ms * 100) / 100,
      memory: { live_index_bytes: index.bytes, versions_add_bytes: versionViewBytes(db).bytes },
    };
  } finally {
    await drop();
  }
}

if (import.meta.main) {
  console.log(
    JSON.stringify(await benchVersions(Number(values.pages), Number(values.versions)), null, 2),
  );
}
