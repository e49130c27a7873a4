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

Deno.test("one wiki id rule: WIKI_ID in lib/urls.ts, no looser copy beside it", async () => {
  const { texts } = await allImports();
  const copies = [...texts]
    .filter(([file, text]) => file !== "lib/urls.ts" && /\[a-z0-9-\]\{/.test(text))
    .map(([file]) => file);
  assert.deepEqual(copies, []);
});

/**
 * The floor plan (docs/architecture.md): a feature's REST routes, MCP tools and web pages are
 * its adapters, built from one kit per surface (`kit/mcp`, `kit/rest`, `kit/web`) and listed by
 * one mount per surface. These files are the mounts: the only ones that import another
 * folder's routes and tools.
 */
const MOUNTS = new Set([
  "app.ts",
  "api/api_routes.ts",
  "mcp/servers.ts",
  "web/web_routes.ts",
  // The wiki's pages under `/w/<id>`, one list the web mount routes to.
  "web/space_routes.tsx",
]);

/** A feature's adapters: REST and web routes, MCP tools, pages. */
const isKit = (file: string) => file.startsWith("kit/");
const isAdapter = (file: string) =>
  !isKit(file) && /_(routes|tools?)\.tsx?$|_pages?\.tsx$/.test(file);

/** What a kit may build on: other kits, access, and the infrastructure below the features. */
const BELOW_KITS = /^(kit|access|db|lib|http|config|markdown|text)\/|^(errors|deps)\.ts$/;

/**
 * Kit imports of a feature, each with why. None: the rows a kit names sit below the features
 * (`db/account_row.ts`), and the web frame's page tree, which the pages feature builds, is
 * handed to the kit by the web mount (`withSpaceNav`).
 */
const KIT_ALLOWED = new Set<string>([]);

/** The boundary rules of the floor plan, as a list of broken ones (empty when all hold). */
export function floorPlanBreaches(imports: Import[]): string[] {
  const breaches: string[] = [];
  for (const { from, to } of imports) {
    const edge = `${from} -> ${to}`;
    if (isAdapter(to) && !MOUNTS.has(from) && folderOf(from) !== folderOf(to)) {
      breaches.push(`only a mount imports another folder's adapter: ${edge}`);
    }
    if (isAdapter(to) && /_(routes|tools?)\.tsx?$/.test(to) && !MOUNTS.has(from)) {
      breaches.push(`only a mount imports routes and tools: ${edge}`);
    }
    if (isKit(from) && !BELOW_KITS.test(to) && !KIT_ALLOWED.has(edge)) {
      breaches.push(`a kit never imports a feature: ${edge}`);
    }
    if (isKit(from) && MOUNTS.has(to)) breaches.push(`a kit never imports a mount: ${edge}`);
  }
  return breaches;
}

Deno.test("the floor plan holds: mounts alone import adapters, kits import no feature", async () => {
  const { imports } = await allImports();
  assert.deepEqual(floorPlanBreaches(imports), []);
  const edges = new Set(imports.map((i) => `${i.from} -> ${i.to}`));
  assert.deepEqual([...KIT_ALLOWED].filter((a) => !edges.has(a)), []);
});

Deno.test("the floor plan check fails on a planted forbidden import", () => {
  const planted = (from: string, to: string) =>
    floorPlanBreaches([{ from, to, values: true }]).length;
  // A feature reaching another feature's route file.
  assert.equal(planted("spaces/view_routes.tsx", "ask/ask_routes.tsx"), 2);
  // A feature's domain mounting its own tools instead of the mount.
  assert.equal(planted("pages/list_pages.ts", "pages/page_tools.ts"), 1);
  // A feature's page used by another feature.
  assert.equal(planted("sync/sync_page.tsx", "ask/ask_page.tsx"), 1);
  // A kit reaching into a feature, and into a mount.
  assert.equal(planted("kit/mcp/tool_result.ts", "search/search_wikis.ts"), 1);
  assert.equal(planted("kit/web/layout.tsx", "mcp/servers.ts"), 2);
  // The mount may import them all; a route file its own pages.
  assert.equal(planted("web/web_routes.ts", "ask/ask_routes.tsx"), 0);
  assert.equal(planted("ask/ask_routes.tsx", "ask/ask_page.tsx"), 0);
});

Deno.test("the architecture figures hold: no circle, no new folder pair, short functions, no store renames", async () => {
  const { breachesOf, figuresOf, measure } = await import("../scripts/architecture.ts");
  assert.deepEqual(breachesOf(figuresOf(await measure())), []);
});

Deno.test("the architecture check fails on a planted pair, a long function and a store rename", async () => {
  const { breachesOf, figuresOf } = await import("../scripts/architecture.ts");
  const breaches = (edges: { from: string; to: string }[], lines: number, forwards: string[]) =>
    breachesOf(figuresOf({
      edges,
      functions: [{ file: "pages/list_pages.ts", name: "listPages", line: 1, lines }],
      storeForwards: forwards,
    }));
  assert.deepEqual(breaches([], 80, []), []);
  // Two features calling each other, outside a mount.
  assert.equal(
    breaches(
      [
        { from: "feedback/propose_edit.ts", to: "ratings/ratings.ts" },
        { from: "ratings/ratings.ts", to: "feedback/propose_edit.ts" },
      ],
      80,
      [],
    ).length,
    2, // the pair and the circle
  );
  // A function over 100 lines, and a store function exported under another name.
  assert.equal(breaches([], 101, []).length, 1);
  assert.equal(breaches([], 80, ["pages/read_page.ts findPage"]).length, 1);
  // A known miss that is gone must be taken off the list.
  const figures = figuresOf({ edges: [], functions: [] });
  const stale = { folderPairs: ["ask <-> versions"], functionsOver100: [], storeForwards: [] };
  assert.deepEqual(breachesOf(figures, stale), [
    "folder pair importing each other named in KNOWN but gone: ask <-> versions",
  ]);
});
