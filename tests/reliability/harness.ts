/**
 * What the reliability checks share: real server processes on loopback (`deno run -A main.ts`)
 * with their own store, fresh PostgreSQL databases, fixtures, table fingerprints, RSS samples
 * and latency percentiles.
 */
import { loadConfig } from "../../src/config/config.ts";
import type { Db } from "../../src/db/db.ts";
import { openPostgres } from "../../src/db/postgres.ts";
import { sweepLeftovers, throwawayName } from "../../src/db/throwaway.ts";
import { createLog } from "../../src/lib/log.ts";
import { openDeps } from "../../src/server.ts";
import { migratedDataDir } from "../helpers.ts";

const ROOT = new URL("../../", import.meta.url);

/** A server process under test. */
export type ServerProcess = {
  url: string;
  pid: number;
  /** Everything it wrote on stderr and stdout so far. */
  output(): string;
  /** Sends a signal and waits for the exit status. */
  stop(signal?: Deno.Signal): Promise<Deno.CommandStatus>;
  status: Promise<Deno.CommandStatus>;
};

/** Servers started and not yet known to have exited: `stopAll` ends them. */
const live = new Set<ServerProcess>();

/** Kills every server this process started that is still running (after a failed check). */
export async function stopAll(): Promise<void> {
  await Promise.all([...live].map((s) => s.stop("SIGKILL")));
}

/** A free TCP port on loopback (bound, then released for the server to take). */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/**
 * Starts `main.ts` with `env` (PORT, BASE_URL, quiet logs and no docs seed by default) and
 * waits until `/healthz` answers, at most `startSeconds`.
 */
export async function startServer(
  env: Record<string, string>,
  options: { port?: number; startSeconds?: number; denoFlags?: string[] } = {},
): Promise<ServerProcess> {
  const port = options.port ?? freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ...options.denoFlags ?? [], "main.ts"],
    cwd: ROOT,
    env: {
      PORT: String(port),
      BASE_URL: url,
      SEED_DOCS: "false",
      LOG_LEVEL: "warn",
      NO_COLOR: "1",
      ...env,
    },
    clearEnv: false,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let text = "";
  const decoder = new TextDecoder();
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
  };
  const drained = Promise.all([drain(child.stdout), drain(child.stderr)]);
  const status = child.status.then(async (s) => {
    await drained;
    live.delete(server);
    return s;
  });
  const server: ServerProcess = {
    url,
    pid: child.pid,
    output: () => text,
    status,
    async stop(signal = "SIGTERM") {
      try {
        child.kill(signal);
      } catch {
        // already gone
      }
      return await status;
    },
  };
  live.add(server);
  const deadline = Date.now() + (options.startSeconds ?? 60) * 1000;
  let exited = false;
  status.then(() => exited = true);
  while (Date.now() < deadline && !exited) {
    try {
      const res = await fetch(`${url}/healthz`);
      await res.body?.cancel();
      if (res.ok) return server;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  await server.stop("SIGKILL");
  throw new Error(`server did not start on ${url}:\n${text.slice(-2000)}`);
}

/** Waits `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The resident set size of a process, in MiB, from `/proc/<pid>/status`. */
export async function rssMiB(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? NaN);
  return Math.round(kb / 1024);
}

/** The machine's 1-minute load average (other work on a shared machine skews figures). */
export async function loadAverage(): Promise<number> {
  const text = await Deno.readTextFile("/proc/loadavg").catch(() => "");
  return Number(text.split(" ")[0] ?? NaN);
}

/** The `p`-th percentile (0–100) of `values`, nearest rank. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[
    Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  ]!;
}

/** A new, empty PostgreSQL database on `serverUrl`'s server; `drop` removes it. */
export async function freshDatabase(
  serverUrl: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = openPostgres(serverUrl, { max: 1 });
  await sweepLeftovers(admin, "wiki_rel_");
  const name = throwawayName("wiki_rel_");
  await admin.exec(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      try {
        await admin.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await admin.close();
      }
    },
  };
}

/** A store to run a server on: its own PGlite folder, or its own PostgreSQL database. */
export type Store = {
  kind: "pglite" | "postgres";
  env: Record<string, string>;
  dispose: () => Promise<void>;
};

/** Makes a store of `kind`; PostgreSQL needs `serverUrl`. */
export async function makeStore(
  kind: "pglite" | "postgres",
  serverUrl?: string,
): Promise<Store> {
  if (kind === "pglite") {
    const dir = await migratedDataDir("wiki_rel_");
    return {
      kind,
      env: { DATA_DIR: dir, DATABASE_URL: "" },
      dispose: () => Deno.remove(dir, { recursive: true }).catch(() => {}),
    };
  }
  if (!serverUrl) throw new Error("PostgreSQL checks need DATABASE_URL");
  const db = await freshDatabase(serverUrl);
  return { kind, env: { DATABASE_URL: db.url }, dispose: db.drop };
}

/**
 * Opens a store the way the server does (migrated, with the configured embedder) for set-up
 * and inspection; with PGlite only while no server holds the folder.
 */
export async function withStore<T>(
  store: Store,
  work: (deps: Awaited<ReturnType<typeof openDeps>>) => Promise<T>,
): Promise<T> {
  const config = loadConfig({ ...store.env, SEED_DOCS: "false" });
  const deps = await openDeps(config, createLog("error"));
  try {
    return await work(deps);
  } finally {
    await deps.db.close();
  }
}

/**
 * A fingerprint of what no hostile request may change: wikis, pages, revisions, chunks,
 * accounts, tokens (without `last_used_at`, which legitimate use moves) and OAuth clients.
 */
export async function dataFingerprint(db: Db): Promise<string> {
  const parts = await Promise.all([
    db`SELECT id, title, description, visibility, owner_account_id, owner_team_id FROM wikis ORDER BY id`,
    db`SELECT id, wiki_id, path, title, markdown, revision, content_hash FROM pages ORDER BY id`,
    db`SELECT page_id, revision, wiki_id, action, path, markdown, content_hash FROM page_revisions
       ORDER BY page_id, revision`,
    db`SELECT page_id, ord, text FROM chunks ORDER BY page_id, ord`,
    db`SELECT id, email, name, password_hash FROM accounts ORDER BY id`,
    db`SELECT id, kind, account_id, wiki_id, name, hint, secret_hash, expires_at, revoked_at
       FROM tokens ORDER BY id`,
    db`SELECT id, name, redirect_uris FROM oauth_clients ORDER BY id`,
  ]);
  const bytes = new TextEncoder().encode(JSON.stringify(parts));
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Runs `fn` with a deadline; past it the promise rejects (the work is abandoned). */
export async function withDeadline<T>(seconds: number, fn: () => Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`did not finish within ${seconds} s`)),
      seconds * 1000,
    );
  });
  try {
    return await Promise.race([fn(), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** Sends `requests` with at most `concurrency` in flight; `send` never throws. */
export async function pool<T, R>(
  items: T[],
  concurrency: number,
  send: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await send(items[i]!, i);
      }
    }),
  );
  return results;
}

/** What the checks aim at once a store is seeded. */
export type Fixtures = {
  space: string;
  publicWiki: string;
  page: string;
  token: string;
  /** Paths of the seeded pages of the public wiki. */
  pages: string[];
};

/**
 * Seeds a store: an account with a private space, a public wiki of `pageCount` pages that link
 * to each other, and an account token.
 */
export async function seedFixtures(store: Store, pageCount = 40): Promise<Fixtures> {
  const { createAccount } = await import("../../src/accounts/accounts.ts");
  const { createToken } = await import("../../src/auth/tokens.ts");
  const { createWiki } = await import("../../src/wikis/wikis.ts");
  const { importPages } = await import("../../src/importer/import_pages.ts");
  return await withStore(store, async (deps) => {
    const account = await createAccount(deps.db, { email: "reliability@example.com" });
    await createWiki(deps.db, { id: "rel-space", ownerAccountId: account.id, title: "Space" });
    await createWiki(deps.db, { id: "rel-public", visibility: "public", title: "Public" });
    const pages = Array.from({ length: pageCount }, (_, i) => ({
      name: `p${i}`,
      path: `Topic ${i}`,
      markdown: topicPage(i, pageCount),
    }));
    await importPages(deps, "rel-public", pages);
    await importPages(deps, "rel-space", [{
      name: "runbook",
      path: "Runbook",
      markdown: "# Runbook\nRestart the service with care. See [[Topic 1]].",
    }]);
    const made = await createToken(deps.db, {
      accountId: account.id,
      kind: "account",
      name: "reliability",
    });
    return {
      space: "rel-space",
      publicWiki: "rel-public",
      page: "Runbook",
      token: made.token,
      pages: pages.map((p) => p.path),
    };
  });
}

const WORDS = [
  "restart",
  "deploy",
  "backup",
  "cache",
  "index",
  "token",
  "latency",
  "replica",
  "failover",
  "schema",
  "migration",
  "vector",
];

/** A page of a few sections on some of the words, linking to its neighbours. */
function topicPage(i: number, count: number): string {
  const word = (k: number) => WORDS[(i * 7 + k) % WORDS.length]!;
  const sections = Array.from(
    { length: 4 },
    (_, k) =>
      `## ${word(k)} notes\n\nHow to ${word(k)} the ${word(k + 1)} safely: check the ${
        word(k + 2)
      } first, then the ${word(k + 3)}. See [[Topic ${(i + k + 1) % count}]].\n`,
  );
  return `# Topic ${i}\n\nAbout ${word(0)} and ${word(1)}.\n\n${sections.join("\n")}`;
}
