/**
 * `deno task import <wiki-id> <folder | .zip | .jsonl> [--title T] [--description D]
 *  [--visibility public|private] [--prune]`: imports markdown pages into a wiki, creating it
 * if needed. Uses the same store as the server (DATABASE_URL, or PGlite in DATA_DIR).
 */
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config/config.ts";
import { importArchive } from "../src/importer/import_archive.ts";
import { progressBar } from "../src/importer/progress_bar.ts";
import { type Archive, readArchive } from "../src/importer/read_archive.ts";
import { MAX_SOURCE_BYTES, readSourceSet } from "../src/importer/read_sources.ts";
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
  const archive = await readArchiveOrSources(source);
  const pages = archive.pages;
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
    const summary = await importArchive(deps, wikiId, archive, {
      prune: values.prune,
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
    for (const file of summary.files) {
      if (file.status === "failed") console.error(`  failed: ${file.name} ${file.reason}`);
      if (file.status === "renamed") console.error(`  kept as ${file.file}: ${file.name}`);
    }
    for (const entry of summary.skipped) console.error(`  skipped: ${entry.name} ${entry.reason}`);
    const filesFailed = summary.files.filter((f) => f.status === "failed").length;
    console.log(
      `${pages.length} pages in ${seconds.toFixed(1)} s (${
        (pages.length / seconds).toFixed(0)
      } pages/s): ` +
        `${summary.added} added, ${summary.updated} updated, ${summary.unchanged} unchanged, ` +
        `${summary.deleted} deleted, ${summary.failed.length} failed; ` +
        `${summary.files.length - filesFailed} files, ${filesFailed} failed, ` +
        `${summary.skipped.length} entries skipped`,
    );
    return summary.failed.length + filesFailed > 0 ? 1 : 0;
  } finally {
    await db.close();
  }
}

/** A zip with its files (as every import reads one); a folder or a `.jsonl` with pages only. */
async function readArchiveOrSources(source: string): Promise<Archive> {
  if (/\.zip$/i.test(source) && (await Deno.stat(source)).isFile) {
    if ((await Deno.stat(source)).size > MAX_SOURCE_BYTES) {
      throw new Error(`"${source}" is larger than ${MAX_SOURCE_BYTES} bytes`);
    }
    return await readArchive(await Deno.readFile(source));
  }
  // A folder keeps its shape too: its format's nav file, `.mdx` pages, folder landing pages.
  const { pages, nav } = await readSourceSet(source);
  return { pages, files: [], skipped: [], nav };
}

try {
  Deno.exit(await main());
} catch (error) {
  console.error(`import failed: ${error instanceof Error ? error.message : String(error)}`);
  Deno.exit(1);
}
