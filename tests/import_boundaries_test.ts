import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * House rules about who may import what, read from the source of `src/` (tests excluded):
 * a feature's SQL (`store.ts`) is its own, route files call feature functions only, and one
 * module (`src/access/`) decides who may use which wiki. Type imports count too: a feature
 * exports the row types others may name from its own modules, so `store.ts` stays private.
 */

const SRC = fileURLToPath(new URL("../src/", import.meta.url));

/**
 * Places allowed to import another feature's store, each with why. None today: the page write's
 * transaction reaches the search index and the wiki row through `search/chunk_index.ts` and
 * `wikis/wikis.ts`, which take the writer's `tx`.
 */
const CROSS_STORE_ALLOWED = new Set<string>([]);

/**
 * Files outside `src/access/` that compare a wiki's visibility for a reason other than
 * access, each with why. (Views — `.tsx` files other than `*_routes.tsx` — only render it.)
 */
const VISIBILITY_ALLOWED = new Set([
  // Start-up check that the seeded guide is still the public, unowned wiki it created.
  "wikis/seed_docs.ts",
  // Shows a wiki's public endpoint beside the private one, for a wiki the policy let through.
  "connect/connect_routes.tsx",
  // A file of a public wiki may be cached by shared caches; a private one only by the browser.
  "attachments/attachment_routes.tsx",
]);

type Import = { from: string; to: string; values: boolean };

async function sourceFiles(dir = SRC): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) files.push(...await sourceFiles(path));
    else if (/\.tsx?$/.test(entry.name) && !/_test\.tsx?$/.test(entry.name)) files.push(path);
  }
  return files.sort();
}

const STATIC = /(?:^|\n)\s*(?:import|export)\s+(type\s+)?([^;]*?)\s*from\s*"([^"]+)"/g;
const BARE = /(?:^|\n)\s*import\s*"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)/g;

/** The relative imports of one file, with whether any imported name is a value. */
function importsOf(path: string, text: string): Import[] {
  const from = relative(SRC, path);
  const resolve = (spec: string) => relative(SRC, join(path, "..", spec));
  const found: Import[] = [];
  for (const [, typeOnly, clause, spec] of text.matchAll(STATIC)) {
    if (!spec!.startsWith(".")) continue;
    const named = /^\{([\s\S]*)\}$/.exec(clause!.trim());
    const values = !typeOnly && (named === null ||
      named[1]!.split(",").map((n) => n.trim()).some((n) => n !== "" && !n.startsWith("type ")));
    found.push({ from, to: resolve(spec!), values });
  }
  for (const [, bare, dynamic] of text.matchAll(BARE)) {
    const spec = bare ?? dynamic!;
    if (spec.startsWith(".")) found.push({ from, to: resolve(spec), values: true });
  }
  return found;
}

async function allImports(): Promise<{ imports: Import[]; texts: Map<string, string> }> {
  const imports: Import[] = [];
  const texts = new Map<string, string>();
  for (const path of await sourceFiles()) {
    const text = await Deno.readTextFile(path);
    texts.set(relative(SRC, path), text);
    imports.push(...importsOf(path, text));
  }
  return { imports, texts };
}

const folderOf = (file: string) => file.split("/")[0]!;
const isStore = (file: string) => file.endsWith("/store.ts");

Deno.test("the import reader sees value, type-only, multi-line and dynamic imports", () => {
  const text = [
    'import { selectPage } from "../pages/store.ts";',
    'import type { PageRow } from "../pages/store.ts";',
    'import { type WikiRow } from "../wikis/store.ts";',
    'import {\n  type TeamRow,\n  selectTeamsOf,\n} from "../teams/store.ts";',
    'const m = await import("../search/store.ts");',
  ].join("\n");
  const got = importsOf(join(SRC, "spaces/x_routes.tsx"), text).map((i) => `${i.to} ${i.values}`);
  assert.deepEqual(got, [
    "pages/store.ts true",
    "pages/store.ts false",
    "wikis/store.ts false",
    "teams/store.ts true",
    "search/store.ts true",
  ]);
});

Deno.test("no file calls into another folder's store.ts outside the commented allow-list", async () => {
  const { imports } = await allImports();
  const crossing = imports
    .filter((i) => isStore(i.to) && folderOf(i.from) !== folderOf(i.to))
    .map((i) => `${i.from} -> ${i.to}`);
  assert.deepEqual(crossing.filter((c) => !CROSS_STORE_ALLOWED.has(c)), []);
  // An entry nothing needs any more is taken off the list, so the list stays short and true.
  assert.deepEqual([...CROSS_STORE_ALLOWED].filter((a) => !crossing.includes(a)), []);
});

Deno.test("route files call feature functions only: no *_routes file calls a store.ts, even its own", async () => {
  const { imports } = await allImports();
  const direct = imports
    .filter((i) => isStore(i.to) && /_routes\.tsx?$/.test(i.from))
    .map((i) => `${i.from} -> ${i.to}`);
  assert.deepEqual(direct, []);
});

Deno.test("api/ and wikis/ do not import from mcp/", async () => {
  const { imports } = await allImports();
  const wrong = imports
    .filter((i) => ["api", "wikis"].includes(folderOf(i.from)) && folderOf(i.to) === "mcp")
    .map((i) => `${i.from} -> ${i.to}`);
  assert.deepEqual(wrong, []);
});

Deno.test("only src/access/ decides access: who reaches which space, and what visibility allows", async () => {
  const { texts } = await allImports();
  const outside = [...texts].filter(([file]) => folderOf(file) !== "access");
  // The queries of reach and the old helpers live in src/access/ alone.
  const reach = outside
    .filter(([, text]) =>
      /\b(selectSpacesOf|selectSpaceRole|spacesOf|requirePublicWiki)\b/.test(text)
    )
    .map(([file]) => file);
  assert.deepEqual(reach, []);
  // Comparing visibility in logic (not a view) is an access decision, outside the allow-list.
  const visibility = outside
    .filter(([file]) => file.endsWith(".ts") || file.endsWith("_routes.tsx"))
    .filter(([, text]) => /\bvisibility\s*[!=]==/.test(text))
    .map(([file]) => file);
  assert.deepEqual(visibility.filter((f) => !VISIBILITY_ALLOWED.has(f)), []);
  assert.deepEqual([...VISIBILITY_ALLOWED].filter((f) => !visibility.includes(f)), []);
});

Deno.test("one wiki id rule: WIKI_ID in wikis/wikis.ts, no looser copy beside it", async () => {
  const { texts } = await allImports();
  const copies = [...texts]
    .filter(([file, text]) => file !== "wikis/wikis.ts" && /\[a-z0-9-\]\{/.test(text))
    .map(([file]) => file);
  assert.deepEqual(copies, []);
});
