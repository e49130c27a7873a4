/**
 * Faults: PostgreSQL stopped and started again under load, and the server killed with SIGKILL
 * in the middle of an import (on PGlite and on PostgreSQL).
 */
import type { Db } from "../../src/db/db.ts";
import { openPostgres } from "../../src/db/postgres.ts";
import { addFigures, type RunContext, tally } from "./check.ts";
import {
  makeStore,
  percentile,
  seedFixtures,
  sleep,
  startServer,
  type Store,
  withStore,
} from "./harness.ts";

/** How long PostgreSQL stays down: a few seconds, since other work may share the server. */
const OUTAGE_SECONDS = 8;
/** Recovery must come within this after PostgreSQL is back. */
const RECOVERY_SECONDS = 30;

/** The cluster this process stopped and has not started again, if any. */
let stopped: { start(): Promise<void> } | null = null;

/**
 * Starts PostgreSQL again if this process left it stopped (a check abandoned at its deadline,
 * or the run interrupted): the runner calls it before it exits.
 */
export async function restorePostgres(): Promise<void> {
  if (stopped) await stopped.start();
}

/** Stops and starts the PostgreSQL cluster that serves `url` (Debian's pg_ctlcluster). */
async function clusterOf(
  url: string,
): Promise<{ stop(): Promise<void>; start(): Promise<void>; online(): Promise<boolean> }> {
  const port = new URL(url).port || "5432";
  const list = await run("pg_lsclusters", ["-h"]);
  const line = list.split("\n").map((l) => l.trim().split(/\s+/)).find((f) => f[2] === port);
  if (!line) throw new Error(`no cluster on port ${port} in pg_lsclusters`);
  const [version, name] = line as [string, string];
  const cluster = {
    stop: async () => {
      stopped = cluster;
      await run("pg_ctlcluster", [version, name, "stop", "-m", "fast"]);
    },
    start: async () => {
      try {
        await run("pg_ctlcluster", [version, name, "start"]);
      } catch (error) {
        // Someone else may have started it meanwhile (scripts/setup_postgres.sh does): fine.
        if (!await cluster.online()) throw error;
      }
      stopped = null;
    },
    online: async () =>
      (await run("pg_lsclusters", ["-h"])).split("\n").some((l) =>
        l.trim().split(/\s+/)[2] === port && l.includes("online")
      ),
  };
  return cluster;
}

async function run(command: string, args: string[]): Promise<string> {
  const out = await new Deno.Command(command, { args, stdout: "piped", stderr: "piped" }).output();
  if (!out.success) {
    throw new Error(`${command} ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return new TextDecoder().decode(out.stdout);
}

/** Waits until PostgreSQL answers a query, at most `seconds`. */
async function waitForPostgres(url: string, seconds: number): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    const db = openPostgres(url, { max: 1 });
    try {
      await db`SELECT 1`;
      return;
    } catch {
      await sleep(250);
    } finally {
      await db.close().catch(() => {});
    }
  }
  throw new Error(`PostgreSQL did not come back within ${seconds} s`);
}

/**
 * Waits (at most `seconds`) until no other database of the cluster is busy, so that a
 * machine shared with other test runs sees the outage between them; then goes ahead anyway.
 */
async function waitForQuietCluster(url: string, own: string, seconds: number): Promise<void> {
  const db = openPostgres(url, { max: 1 });
  try {
    const deadline = Date.now() + seconds * 1000;
    while (Date.now() < deadline) {
      const [row] = await db<{ n: number }>`
        SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() AND state <> 'idle'
          AND datname IS NOT NULL AND datname NOT IN (${own}, 'postgres')`;
      if (row!.n === 0) return;
      await sleep(1000);
    }
  } finally {
    await db.close();
  }
}

type Sample = { kind: "read" | "write"; started: number; ended: number; status: string };

/**
 * PostgreSQL stopped under a steady read and write load, then started: 503s while it is down,
 * 2xx again within seconds once it is back, and every write acknowledged with a 2xx readable
 * afterwards with the content sent.
 */
export async function checkPostgresOutage(ctx: RunContext): Promise<void> {
  if (!ctx.databaseUrl) {
    for (const name of ["503s", "recovery", "no acknowledged write lost"]) {
      ctx.verdict({ name: `outage: ${name}`, ok: false, detail: "no PostgreSQL (DATABASE_URL)" });
    }
    return;
  }
  const cluster = await clusterOf(ctx.databaseUrl);
  const store = await makeStore("postgres", ctx.databaseUrl);
  try {
    const fixtures = await seedFixtures(store, 10);
    const server = await startServer({
      ...store.env,
      RATE_LIMIT_ANON_PER_MINUTE: "100000000",
      RATE_LIMIT_TOKEN_PER_MINUTE: "100000000",
    });
    const t0 = performance.now();
    const now = () => (performance.now() - t0) / 1000;
    const samples: Sample[] = [];
    const acknowledged = new Map<string, string>();
    let running = true;
    let n = 0;
    const auth = { Authorization: `Bearer ${fixtures.token}` };
    const writer = async () => {
      while (running) {
        const path = `Outage/W${n++}`;
        const markdown = `# W${n}\nWritten at ${now().toFixed(3)} s, number ${n}.`;
        const started = now();
        let status: string;
        try {
          const res = await fetch(
            `${server.url}/api/v1/spaces/${fixtures.space}/pages/${encodeURIComponent(path)}`,
            {
              method: "PUT",
              headers: { ...auth, "Content-Type": "text/markdown" },
              body: markdown,
            },
          );
          await res.body?.cancel();
          status = String(res.status);
          if (res.ok) acknowledged.set(path, markdown);
        } catch (error) {
          status = `network: ${(error as Error).name}`;
        }
        samples.push({ kind: "write", started, ended: now(), status });
        await sleep(100);
      }
    };
    const reader = async () => {
      while (running) {
        const started = now();
        let status: string;
        try {
          const res = await fetch(
            `${server.url}/api/v1/public/wikis/${fixtures.publicWiki}/search?q=restart`,
          );
          await res.body?.cancel();
          status = String(res.status);
        } catch (error) {
          status = `network: ${(error as Error).name}`;
        }
        samples.push({ kind: "read", started, ended: now(), status });
        await sleep(100);
      }
    };
    const load = Promise.all([writer(), reader()]);
    let stoppedAt = NaN;
    let startedAt = NaN;
    let readiness: Promise<number> = Promise.resolve(NaN);
    try {
      await sleep(3000);
      await waitForQuietCluster(
        ctx.databaseUrl,
        new URL(store.env.DATABASE_URL!).pathname.slice(1),
        60,
      );
      await cluster.stop();
      stoppedAt = now();
      await sleep(1000);
      readiness = fetch(`${server.url}/readyz`).then(async (r) => {
        await r.body?.cancel();
        return r.status;
      }, () => NaN);
      // On a shared machine someone may start it again early (setup_postgres.sh does): the
      // outage then ends there.
      while (now() < stoppedAt + OUTAGE_SECONDS && !await cluster.online()) await sleep(250);
    } finally {
      // Whatever happened above, PostgreSQL is started again, at once.
      startedAt = now();
      await cluster.start();
      await waitForPostgres(ctx.databaseUrl, 60);
    }
    const upAt = now();
    const readyDuring = await readiness;
    const firstOk = (kind: Sample["kind"]) =>
      samples.find((s) => s.kind === kind && s.started >= startedAt && /^2/.test(s.status));
    const deadline = startedAt + RECOVERY_SECONDS;
    while (now() < deadline && !(firstOk("read") && firstOk("write"))) await sleep(200);
    await sleep(3000);
    running = false;
    await load;

    // Half a second of margin each side: the stop takes effect, the restart may be noticed late.
    const during = samples.filter((s) => s.started > stoppedAt + 0.5 && s.ended < startedAt - 0.5);
    const bad = samples.filter((s) =>
      /^5/.test(s.status) && s.status !== "503" || /network/.test(s.status)
    );
    ctx.verdict({
      name: "outage: while PostgreSQL is down, requests answer 503 (readyz too), never 500",
      ok: during.length > 0 && during.every((s) => s.status === "503") && bad.length === 0 &&
        readyDuring === 503,
      detail: `during the outage: ${tally(during.map((s) => s.status))}; /readyz ${readyDuring}; ` +
        `other 5xx or network errors over the run: ${tally(bad.map((s) => s.status)) || "none"}`,
    });
    const readBack = firstOk("read");
    const writeBack = firstOk("write");
    const recovery = Math.max(readBack?.ended ?? Infinity, writeBack?.ended ?? Infinity) -
      startedAt;
    ctx.verdict({
      name:
        `outage: reads and writes succeed again within ${RECOVERY_SECONDS} s of PostgreSQL's return`,
      ok: recovery <= RECOVERY_SECONDS,
      detail: `first 2xx read ${((readBack?.ended ?? NaN) - startedAt).toFixed(2)} s and write ` +
        `${((writeBack?.ended ?? NaN) - startedAt).toFixed(2)} s after \`pg_ctlcluster start\``,
    });
    let lost = 0;
    for (const [path, markdown] of acknowledged) {
      const res = await fetch(
        `${server.url}/api/v1/spaces/${fixtures.space}/pages/${encodeURIComponent(path)}`,
        { headers: { ...auth, Accept: "text/markdown" } },
      );
      if (!res.ok || await res.text() !== markdown) lost++;
    }
    await server.stop();
    const errors = server.output().split("\n").filter((l) => l.includes('"unhandled error"'));
    const writes = samples.filter((s) => s.kind === "write");
    ctx.verdict({
      name: "outage: no acknowledged write lost",
      ok: lost === 0 && acknowledged.size > 0,
      detail: `${acknowledged.size} writes acknowledged, ${lost} not readable as written`,
    });
    if (errors.length > 0) {
      ctx.verdict({
        name: "outage: no unhandled error in the server's log",
        ok: false,
        detail: errors.slice(0, 3).map((l) => l.slice(0, 1500)).join("\n"),
      });
    }
    addFigures(
      ctx,
      "PostgreSQL outage",
      `- Steady load of sequential page writes (PUT) and searches, ~10/s each; PostgreSQL ` +
        `stopped (\`pg_ctlcluster … stop -m fast\`) at ${stoppedAt.toFixed(1)} s, started ` +
        `again at ${startedAt.toFixed(1)} s, accepting connections at ${upAt.toFixed(1)} s.`,
      `- During the outage: ${tally(during.map((s) => s.status))} (reads and writes); ` +
        `\`/readyz\` ${readyDuring}. Time to the 503: median ` +
        `${seconds(percentile(during.map((s) => s.ended - s.started), 50))}, max ` +
        `${seconds(Math.max(...during.map((s) => s.ended - s.started)))}.`,
      `- Back: first successful read ${((readBack?.ended ?? NaN) - startedAt).toFixed(2)} s ` +
        `and write ${((writeBack?.ended ?? NaN) - startedAt).toFixed(2)} s after the start ` +
        `command.`,
      `- Writes over the run: ${tally(writes.map((s) => s.status))}; ${acknowledged.size} ` +
        `acknowledged, ${lost} lost.`,
    );
  } finally {
    await store.dispose();
  }
}

function seconds(value: number): string {
  return `${value.toFixed(2)} s`;
}

/** The two versions of an imported page: a unique marker word in every section of each. */
function importPage(i: number, version: "old" | "new"): string {
  const marker = version === "old" ? "zqxold" : "zqxnew";
  const sections = Array.from(
    { length: 5 },
    (_, k) =>
      `## Part ${k}\n\n${marker} text of page ${i}, part ${k}: ` +
      "the quick brown fox jumps over the lazy dog and keeps notes on every jump. ".repeat(4),
  );
  return `# Page ${i}\n\n${marker} introduction.\n\n${sections.join("\n")}`;
}

/**
 * Where a store stands after a crash: pages old or new (none else), each page's row equal to
 * its latest revision, chunks and postings of the current text only, and the wiki's search
 * statistics equal to its chunks.
 */
async function inspectImport(db: Db, wikiId: string, count: number) {
  const pages = await db<{ path: string; markdown: string; revision: number; hash_ok: boolean }>`
    SELECT p.path, p.markdown, p.revision,
           (r.markdown = p.markdown AND r.content_hash = p.content_hash) AS hash_ok
    FROM pages p
    LEFT JOIN page_revisions r ON r.page_id = p.id
      AND r.revision = (SELECT max(revision) FROM page_revisions WHERE page_id = p.id)
    WHERE p.wiki_id = ${wikiId}`;
  let old = 0, fresh = 0, other = 0, stale = 0;
  for (const page of pages) {
    const i = Number(/^P(\d+)$/.exec(page.path)?.[1]);
    if (page.markdown === importPage(i, "old") && page.revision === 1) old++;
    else if (page.markdown === importPage(i, "new") && page.revision === 2) fresh++;
    else other++;
    if (!page.hash_ok) stale++;
  }
  const [index] = await db<{
    mixed_chunks: number;
    pages_without_chunks: number;
    stray_vectors: number;
    new_term_pages: number;
    old_term_pages: number;
    stats_ok: boolean;
    df_mismatches: number;
  }>`
    SELECT
      (SELECT count(*)::int FROM chunks c JOIN pages p ON p.id = c.page_id
        WHERE c.wiki_id = ${wikiId}
          AND ((p.markdown LIKE '%zqxnew%' AND c.text LIKE '%zqxold%')
            OR (p.markdown LIKE '%zqxold%' AND c.text LIKE '%zqxnew%')))
        AS mixed_chunks,
      (SELECT count(*)::int FROM pages p WHERE p.wiki_id = ${wikiId}
        AND NOT EXISTS (SELECT 1 FROM chunks c WHERE c.page_id = p.id)) AS pages_without_chunks,
      -- The server runs the offline embedder, whose vectors are not stored (migration 0016).
      (SELECT count(*)::int FROM chunks WHERE wiki_id = ${wikiId} AND embedding IS NOT NULL)
        AS stray_vectors,
      (SELECT count(DISTINCT c.page_id)::int FROM chunk_terms t JOIN chunks c ON c.id = t.chunk_id
        WHERE t.wiki_id = ${wikiId} AND t.term = 'zqxnew') AS new_term_pages,
      (SELECT count(DISTINCT c.page_id)::int FROM chunk_terms t JOIN chunks c ON c.id = t.chunk_id
        WHERE t.wiki_id = ${wikiId} AND t.term = 'zqxold') AS old_term_pages,
      (SELECT s.chunks = (SELECT count(*) FROM chunks WHERE wiki_id = ${wikiId})
          AND s.length_sum = (SELECT coalesce(sum(length), 0) FROM chunks WHERE wiki_id = ${wikiId})
        FROM search_stats s WHERE s.wiki_id = ${wikiId}) AS stats_ok,
      (SELECT count(*)::int FROM (
        SELECT term, df FROM term_stats WHERE wiki_id = ${wikiId} AND df > 0
      ) s FULL JOIN (
        SELECT term, count(*)::int AS n FROM chunk_terms WHERE wiki_id = ${wikiId} GROUP BY term
      ) t USING (term) WHERE s.df IS DISTINCT FROM t.n) AS df_mismatches`;
  const i = index!;
  const consistent = pages.length === count && other === 0 && stale === 0 &&
    i.mixed_chunks === 0 && i.pages_without_chunks === 0 && i.stray_vectors === 0 &&
    i.new_term_pages === fresh && i.old_term_pages === old && i.stats_ok && i.df_mismatches === 0;
  return { pages: pages.length, old, fresh, other, stale, ...i, consistent };
}

/**
 * A server killed with SIGKILL while it imports a new version of every page of a space (REST
 * import): on restart, every page is wholly old or wholly new, and the search index matches
 * the text.
 */
export async function checkCrashDuringImport(
  ctx: RunContext,
  kinds: ("pglite" | "postgres")[],
): Promise<void> {
  for (const kind of kinds) {
    const name = `crash: SIGKILL mid-import on ${kind} leaves whole pages and a matching index`;
    if (kind === "postgres" && !ctx.databaseUrl) {
      ctx.verdict({ name, ok: false, detail: "no PostgreSQL (DATABASE_URL)" });
      continue;
    }
    const store = await makeStore(kind, ctx.databaseUrl);
    try {
      // An import writes 100 pages per transaction (BATCH_PAGES): six or twenty batches, so
      // the kill lands after the first has committed and before the last. PGlite gets twenty:
      // since imports stopped storing offline vectors, seeding 500 pages took under 5 s, and two
      // thirds of that (the fallback kill below) came before the server's first, cold batch.
      const result = await crashDuringImport(store, kind === "pglite" ? 2000 : 600);
      ctx.verdict({
        name,
        ok: result.consistent && result.old > 0 && result.fresh > 0 && result.restarted,
        detail: JSON.stringify(result),
      });
      addFigures(
        ctx,
        "Crash during an import",
        `- ${kind}: ${result.pages} pages, killed ${result.killedAfter.toFixed(1)} s into the ` +
          `import: ${result.fresh} new, ${result.old} old, ${result.other} other; revisions ` +
          `match pages: ${result.stale === 0}; chunks of another version: ` +
          `${result.mixed_chunks}; stored vectors: ${result.stray_vectors}; pages indexed under ` +
          `the new marker ${result.new_term_pages} (= new pages), under the old ` +
          `${result.old_term_pages} (= old pages); search statistics match chunks: ` +
          `${result.stats_ok}; df mismatches: ${result.df_mismatches}; restarted and served: ` +
          `${result.restarted}.`,
      );
    } finally {
      await store.dispose();
    }
  }
}

async function crashDuringImport(store: Store, count: number) {
  const fixtures = await seedFixtures(store, 2);
  const wikiId = "rel-import";
  const { createWiki } = await import("../../src/wikis/wikis.ts");
  const { importPages } = await import("../../src/importer/import_pages.ts");
  const seeding = performance.now();
  await withStore(store, async (deps) => {
    const [account] = await deps.db<{ id: string }>`
      SELECT id FROM accounts WHERE email = 'reliability@example.com'`;
    await createWiki(deps.db, { id: wikiId, ownerAccountId: account!.id });
    await importPages(
      deps,
      wikiId,
      Array.from({ length: count }, (_, i) => ({
        name: `P${i}`,
        path: `P${i}`,
        markdown: importPage(i, "old"),
      })),
    );
  });
  // How long writing every page took here: the import through the server takes about as long.
  const calibrated = performance.now() - seeding;
  const server = await startServer(store.env);
  const auth = { Authorization: `Bearer ${fixtures.token}` };
  const body = JSON.stringify({
    pages: Array.from({ length: count }, (_, i) => ({
      path: `P${i}`,
      markdown: importPage(i, "new"),
    })),
  });
  const started = performance.now();
  const importing = fetch(`${server.url}/api/v1/spaces/${wikiId}/import`, {
    method: "POST",
    headers: { ...auth, "Content-Type": "application/json" },
    body,
  }).then((r) => r.status, () => "killed");
  // Kill once the first batch of pages is new (the first hundred, a few batches in), well
  // inside the import. With PGlite the import's back-to-back transactions can keep the probe
  // waiting, so past two thirds of the calibrated duration the kill comes anyway (the server's
  // first batch, cold, can take longer than a third of the warm seeding).
  const probe = `P${Math.min(50, Math.floor(count / 10))}`; // in the first batch
  // On PostgreSQL the probe is never held behind the import's transactions and stops the wait at
  // the first batch, so the wait may be long: on a loaded machine a wait of two thirds of a
  // one-second seeding ended before the server's cold first batch, and the kill came before any
  // page was new (CI, once: "fresh": 0).
  const floor = store.kind === "postgres" ? 30_000 : 0;
  const deadline = performance.now() + Math.min(120_000, Math.max(floor, calibrated * 2 / 3));
  while (performance.now() < deadline) {
    const res = await fetch(`${server.url}/api/v1/spaces/${wikiId}/pages/${probe}`, {
      headers: { ...auth, Accept: "text/markdown" },
      signal: AbortSignal.timeout(Math.max(50, deadline - performance.now())),
    }).catch(() => null);
    const text = await res?.text().catch(() => "");
    if (text?.includes("zqxnew")) break;
    await sleep(20);
  }
  const killedAfter = (performance.now() - started) / 1000;
  await server.stop("SIGKILL");
  const importStatus = await importing;
  const inspected = await withStore(store, (deps) => inspectImport(deps.db, wikiId, count));
  const again = await startServer(store.env);
  let restarted = false;
  try {
    const page = await fetch(`${again.url}/api/v1/spaces/${wikiId}/pages/P0`, {
      headers: { ...auth, Accept: "text/markdown" },
    });
    restarted = page.ok && (await page.text()).includes("zqxnew");
  } finally {
    await again.stop();
  }
  return { ...inspected, killedAfter, importStatus, restarted };
}
