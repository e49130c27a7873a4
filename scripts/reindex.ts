/**
 * `deno task reindex [wiki-id]`: re-splits the pages an older release split differently (their
 * passages are parsed again from the stored markdown; unchanged pages are left alone), embeds
 * every chunk that lacks a vector of the configured embedder (after changing EMBEDDER or
 * EMBEDDING_MODEL, or after an embedding outage), then re-indexes pages stored before text in
 * other scripts was indexed (CJK, Cyrillic, Greek).
 */
import { loadConfig } from "../src/config/config.ts";
import { progressBar } from "../src/importer/progress_bar.ts";
import { createLog } from "../src/lib/log.ts";
import { storesVectors } from "../src/search/fusion.ts";
import { reindexOtherScripts, reindexVectors, reparsePages } from "../src/search/reindex.ts";
import { openDeps } from "../src/server.ts";
import { getWiki } from "../src/wikis/wikis.ts";

try {
  const wikiId = Deno.args[0] ?? null;
  const config = loadConfig(Deno.env.toObject());
  const deps = await openDeps(config, createLog("error"));
  try {
    if (wikiId) await getWiki(deps.db, wikiId);
    const resplit = await reparsePages(deps, wikiId);
    if (resplit > 0) console.log(`${resplit} pages split into passages again`);
    if (storesVectors(deps.embedder)) {
      const bar = progressBar(`Embedding with ${deps.embedder.id}`);
      const started = performance.now();
      const n = await reindexVectors(deps, wikiId, (done, total) => bar(done, total, "chunks"));
      const seconds = (performance.now() - started) / 1000;
      console.log(
        `${n} chunks embedded in ${seconds.toFixed(1)} s${wikiId ? ` (wiki "${wikiId}")` : ""}`,
      );
    } else console.log(`${deps.embedder.id} stores no vectors: no chunk to embed`);
    const pages = await reindexOtherScripts(deps, wikiId);
    if (pages > 0) console.log(`${pages} pages in other scripts re-indexed`);
  } finally {
    await deps.db.close();
  }
} catch (error) {
  console.error(`reindex failed: ${error instanceof Error ? error.message : String(error)}`);
  Deno.exit(1);
}
