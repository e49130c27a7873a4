/**
 * Writes `deno.server.lock`: the part of `deno.lock` the server and its operator commands
 * (`main.ts`, `scripts/import.ts`, `scripts/admin.ts`, `scripts/reindex.ts`) need.
 *
 * Why a second lock file: Deno downloads every npm package of the lock file it runs with, not
 * only those the program imports. With the one `deno.lock`, a first `deno task start` fetched
 * the test tools too (playwright-core, the MCP client, swagger-parser…, ~290 MB). The start,
 * import, admin and reindex tasks run with `--frozen --lock=deno.server.lock`, so they fetch only
 * what they import, at the versions the tests ran with (this file is cut from `deno.lock`, never
 * resolved on its own). `tests/server_graph_test.ts` fails when it is out of date.
 *
 * Usage: `deno task lock:server` after adding or upgrading a dependency.
 */

/** The entry points whose npm packages the server lock holds. */
export const SERVER_ENTRY_POINTS = [
  "main.ts",
  "scripts/import.ts",
  "scripts/admin.ts",
  "scripts/reindex.ts",
  // Started by the server as a Web Worker (`new Worker(new URL(...))`), which `deno info` does
  // not follow from main.ts: its packages must be in the lock all the same.
  "src/spaces/render_worker.ts",
];

/** A Deno lock file (version 5), as far as this script reads it. */
export type Lock = {
  version: string;
  specifiers?: Record<string, string>;
  npm?: Record<string, { dependencies?: string[]; optionalDependencies?: string[] }>;
  [key: string]: unknown;
};

/**
 * The lock cut down to the given npm packages (`name@version`) and everything they depend on.
 * Other sections (`workspace`, …) are kept as they are.
 */
export function pruneLock(lock: Lock, packages: Iterable<string>): Lock {
  const wanted = new Set(packages);
  const specifiers: Record<string, string> = {};
  const npm = lock.npm ?? {};
  const queue: string[] = [];
  for (const [specifier, resolved] of Object.entries(lock.specifiers ?? {})) {
    if (!specifier.startsWith("npm:")) continue;
    const name = packageName(specifier.slice(4));
    const version = resolved.split("_")[0];
    if (!wanted.has(`${name}@${version}`)) continue;
    specifiers[specifier] = resolved;
    queue.push(`${name}@${resolved}`);
  }
  const kept: Lock["npm"] = {};
  while (queue.length > 0) {
    const key = findPackage(npm, queue.pop()!);
    if (key === undefined || key in kept) continue;
    const entry = npm[key]!;
    kept[key] = entry;
    queue.push(...entry.dependencies ?? [], ...entry.optionalDependencies ?? []);
  }
  // Deno writes a dependency as bare `name` when the lock holds one version of it.
  const names = Object.keys(kept).map(packageName);
  const single = (name: string) => names.filter((n) => n === name).length === 1;
  const sorted = Object.entries(kept).sort(([a], [b]) => a < b ? -1 : 1).map(([key, entry]) => {
    const rewrite = (refs?: string[]) =>
      refs?.map((ref) => single(packageName(ref)) ? packageName(ref) : ref);
    const out = { ...entry };
    if (entry.dependencies) out.dependencies = rewrite(entry.dependencies);
    if (entry.optionalDependencies) {
      out.optionalDependencies = rewrite(entry.optionalDependencies);
    }
    return [key, out];
  });
  return { ...lock, specifiers, npm: Object.fromEntries(sorted) };
}

/** The npm packages (`name@version`) a module graph reaches, from `deno info --json`. */
export function npmPackagesOf(info: {
  modules: { specifier: string; kind?: string }[];
  redirects: Record<string, string>;
}): Set<string> {
  const packages = new Set<string>();
  const specifiers = [
    ...info.modules.filter((m) => m.kind === "npm").map((m) => m.specifier),
    ...Object.keys(info.redirects),
  ];
  for (const specifier of specifiers) {
    if (!specifier.startsWith("npm:")) continue;
    const bare = specifier.slice(4).replace(/^\//, "");
    const name = packageName(bare);
    const version = /^@?[^@]+@([^/]+)/.exec(bare)?.[1];
    if (version) packages.add(`${name}@${version}`);
  }
  return packages;
}

/** `deno info --json` of one entry point, resolved against `deno.dev.lock`. */
export async function denoInfo(entry: string, args: string[] = []) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--lock=deno.dev.lock", ...args, entry],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!output.success) {
    throw new Error(`deno info ${entry} failed: ${new TextDecoder().decode(output.stderr)}`);
  }
  return JSON.parse(new TextDecoder().decode(output.stdout));
}

/** The server lock as it should be, cut from `deno.dev.lock`. */
export async function serverLock(): Promise<Lock> {
  const lock: Lock = JSON.parse(await Deno.readTextFile("deno.dev.lock"));
  const packages = new Set<string>();
  for (const entry of SERVER_ENTRY_POINTS) {
    for (const p of npmPackagesOf(await denoInfo(entry))) packages.add(p);
  }
  return pruneLock(lock, packages);
}

/** `@scope/name@1.2.3/sub` → `@scope/name`. */
function packageName(specifier: string): string {
  const at = specifier.indexOf("@", 1);
  const name = at === -1 ? specifier : specifier.slice(0, at);
  return name.split("/").slice(0, name.startsWith("@") ? 2 : 1).join("/");
}

/** The lock's key for a dependency written `name`, `name@version` or `name@version_peer…`. */
function findPackage(npm: NonNullable<Lock["npm"]>, ref: string): string | undefined {
  if (ref in npm) return ref;
  const keys = Object.keys(npm);
  if (ref.indexOf("@", 1) === -1) return keys.find((k) => packageName(k) === ref);
  return keys.find((k) => k.startsWith(`${ref}_`));
}

if (import.meta.main) {
  const text = JSON.stringify(await serverLock(), null, 2) + "\n";
  await Deno.writeTextFile("deno.lock", text);
  console.log("wrote deno.lock");
}
