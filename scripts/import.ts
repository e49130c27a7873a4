/**
 * `deno task import <wiki-id> <folder | .zip | .jsonl> [--title T] [--description D]
 *  [--visibility public|private] [--prune]`: imports markdown pages into a wiki, creating it
 * if needed. Uses the same store as the server (DATABASE_URL, or PGlite in DATA_DIR).
 */
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config/config.ts";
import { importPages } from "../src/importer/import_pages.ts";
import { progressBar } from "../src/importer/progress_bar.ts";
import { readSourceSet } from "../src/importer/read_sources.ts";
import { createLog } from "../src/lib/log.ts";
import { openDeps } from "../src/server.ts";
import { ensureWiki } from "../src/wikis/wikis.ts";

const usage = "usage: deno task import <wiki-id> <folder|file.zip|pages.jsonl> " +
  "[--title T] [--description D] [--visibility public|private] [--prune]";

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    allowPositionals: true,
    options: {
      title: { type: "string" },
      description: { type: "string" },
      visibility: { type: "string" },
      prune: { type: "boolean", default: false },
    },
  });
  const [wikiId, source] = positionals;
  if (!wikiId || !source || positionals.length > 2) {
    console.error(usage);
    return 2;
  }
  if (values.visibility && values.visibility !== "public" && values.visibility !== "private") {
    console.error(`--visibility must be "public" or "private", not "${values.visibility}"`);
    return 2;
  }
  const config = loadConfig(Deno.env.toObject());
  const log = createLog("warn");
  const { pages, nav } = await readSourceSet(source);
  const deps = await openDeps(config, log);
  const db = deps.db;
  try {
    const { created } = await ensureWiki(db, {
      id: wikiId,
      title: values.title,
      description: values.description,
      visibility: values.visibility as "public" | "private" | undefined,
    });
    if (created) console.error(`Created wiki "${wikiId}"`);
    const bar = progressBar(`Importing into "${wikiId}"`);
    const started = performance.now();
    const summary = await importPages(deps, wikiId, pages, {
      prune: values.prune,
      nav,
      onProgress: (done, total, s) =>
        bar(
          done,
          total,
          `added ${s.added}, updated ${s.updated}, unchanged ${s.unchanged}, failed ${s.failed.length}`,
        ),
    });
    const seconds = (performance.now() - started) / 1000;
    for (const failure of summary.failed) {
      console.error(`  failed: ${failure.name} ${failure.error}`);
    }
    console.log(
      `${pages.length} pages in ${seconds.toFixed(1)} s (${
        (pages.length / seconds).toFixed(0)
      } pages/s): ` +
        `${summary.added} added, ${summary.updated} updated, ${summary.unchanged} unchanged, ` +
        `${summary.deleted} deleted, ${summary.failed.length} failed`,
    );
    return summary.failed.length > 0 ? 1 : 0;
  } finally {
    await db.close();
  }
}

try {
  Deno.exit(await main());
} catch (error) {
  console.error(`import failed: ${error instanceof Error ? error.message : String(error)}`);
  Deno.exit(1);
}
