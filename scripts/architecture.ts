/**
 * Measures the floor plan of `src/` (docs/architecture.md) with the TypeScript compiler's
 * parser: the import graph (circles, imports running back up a floor, folder pairs importing
 * each other) and the length of every function.
 *
 *   deno run --lock=deno.dev.lock --allow-read --allow-env scripts/architecture.ts [--list] [--check]
 *
 * `--list` names what each figure counts; `--check` exits 1 when a target is missed, except
 * for the misses `KNOWN` names one by one (so none can be added), or when one of those is gone.
 *
 * @module
 */
import ts from "npm:typescript@5.9.3";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const SRC = fileURLToPath(new URL("../src/", import.meta.url));

/** The targets of the floor plan (issue #27), checked by `--check` and the boundary test. */
export const TARGETS = {
  circles: 0,
  upImports: 35,
  folderPairs: 0,
  functionsOver100: 0,
  functionsOver80: 10,
  storeForwards: 0,
};

/**
 * Where the figures miss a target, named one by one, so `--check` (and the boundary test) fails
 * on anything new while these are worked off. None today: every figure meets its target.
 */
export const KNOWN = {
  folderPairs: [] as string[],
  functionsOver100: [] as string[],
  storeForwards: [] as string[],
};

/** One relative import between two files of `src/` (paths relative to `src/`). */
export type Edge = { from: string; to: string };
/** One function (declaration, expression, arrow or method) and its length in lines. */
export type FunctionLength = { file: string; name: string; line: number; lines: number };

/** The floors, top to bottom: each file may import its own floor and those below. */
export const FLOORS = ["infrastructure", "domain", "kits and access", "adapters", "mounts"];

/** The files that list a surface's adapters (and the entry that routes to them). */
export const MOUNTS = new Set([
  "app.ts",
  "server.ts",
  "api/api_routes.ts",
  "mcp/servers.ts",
  "web/web_routes.ts",
  "web/space_routes.tsx",
]);

const SURFACES = new Set(["api", "mcp", "web"]);
const INFRASTRUCTURE = new Set(["db", "lib", "http", "config", "markdown", "text"]);

/**
 * A file's folder: its first segment, or `kit/<surface>` for a kit. A file at the root (the
 * entry, `errors.ts`, `deps.ts`) is a unit of its own: the root is not a feature.
 */
export function folderOf(file: string): string {
  const parts = file.split("/");
  if (parts.length === 1) return file;
  return parts[0] === "kit" ? `kit/${parts[1]}` : parts[0]!;
}

/** Whether a file is a feature's adapter: REST or web routes, MCP tools, a page or view. */
export function isAdapter(file: string): boolean {
  const name = file.split("/").at(-1)!;
  return name.endsWith(".tsx") || /_(routes|tools?)\.ts$/.test(name);
}

/**
 * A file's floor (an index into `FLOORS`): the entry and mounts (with the protocol plumbing of
 * `api/`, `mcp/` and `web/`) at the top, then feature adapters, kits and access, a feature's
 * domain code, and infrastructure.
 */
export function floorOf(file: string): number {
  const folder = folderOf(file);
  if (MOUNTS.has(file) || SURFACES.has(folder)) return 4;
  if (folder.startsWith("kit/") || folder === "access") return 2;
  if (INFRASTRUCTURE.has(folder) || !file.includes("/")) return 0;
  return isAdapter(file) ? 3 : 1;
}

async function sourceFiles(dir = SRC): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) files.push(...await sourceFiles(path));
    else if (/\.tsx?$/.test(entry.name) && !/_test\.tsx?$/.test(entry.name)) files.push(path);
  }
  return files.sort();
}

/** The relative imports (static, re-exports, dynamic) of one parsed file. */
function importsOf(file: string, source: ts.SourceFile): Edge[] {
  const edges: Edge[] = [];
  const add = (spec: string) => {
    if (spec.startsWith(".")) edges.push({ from: file, to: join(file, "..", spec) });
  };
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) add(node.moduleSpecifier.text);
    if (
      ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] && ts.isStringLiteral(node.arguments[0])
    ) add(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

/** The name a function goes by: its own, its variable's, its property's, or its call's. */
function nameOf(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (node.name) return node.name.getText(source);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) {
    return parent.name.getText(source);
  }
  if (ts.isCallExpression(parent)) {
    const first = parent.arguments[0];
    const callee = parent.expression.getText(source).slice(0, 40);
    return first && ts.isStringLiteral(first) ? `${callee}(${first.text})` : `${callee}(…)`;
  }
  return "(anonymous)";
}

/** Every function of one parsed file with its length in lines (nested ones counted apart). */
function functionsOf(file: string, source: ts.SourceFile): FunctionLength[] {
  const found: FunctionLength[] = [];
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const visit = (node: ts.Node) => {
    if (
      (ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) ||
        ts.isArrowFunction(node) || ts.isMethodDeclaration(node)) && node.body
    ) {
      const line = lineOf(node.getStart(source));
      found.push({ file, name: nameOf(node, source), line, lines: lineOf(node.end) - line + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The strongly connected components of more than one file (Tarjan), each a circle. */
export function circlesOf(edges: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...next.get(from) ?? [], to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const connect = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) circles.push(component.sort());
  };
  for (const v of next.keys()) if (!index.has(v)) connect(v);
  return circles;
}

/**
 * Folder pairs that import each other, each as `a <-> b`. An import from a mount does not
 * count: listing every feature's adapters is what a mount is for.
 */
export function folderPairsOf(edges: Edge[]): string[] {
  const crossing = new Set(
    edges
      .filter((e) => !MOUNTS.has(e.from) && folderOf(e.from) !== folderOf(e.to))
      .map((e) => `${folderOf(e.from)} ${folderOf(e.to)}`),
  );
  return [...crossing]
    .map((pair) => pair.split(" ") as [string, string])
    .filter(([a, b]) => a < b && crossing.has(`${b} ${a}`))
    .map(([a, b]) => `${a} <-> ${b}`)
    .sort();
}

/**
 * Exported functions outside a store whose whole body returns a call of a store function: a
 * store function renamed, where a feature's `mod.ts` should export it as it is.
 */
function storeForwardsOf(file: string, source: ts.SourceFile): string[] {
  if (file.endsWith("store.ts")) return [];
  const fromStore = new Set<string>();
  for (const statement of source.statements) {
    if (
      ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier) &&
      /(^|\/)store\.ts$/.test(statement.moduleSpecifier.text)
    ) {
      const bindings = statement.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) {
        for (const element of bindings.elements) fromStore.add(element.name.text);
      }
    }
  }
  const found: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isFunctionDeclaration(statement) || !statement.body || !statement.name) continue;
    if (!statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    const [only, ...rest] = statement.body.statements;
    if (!only || rest.length > 0 || !ts.isReturnStatement(only) || !only.expression) continue;
    let call = only.expression;
    if (ts.isAwaitExpression(call)) call = call.expression;
    if (
      ts.isCallExpression(call) && ts.isIdentifier(call.expression) &&
      fromStore.has(call.expression.text)
    ) found.push(`${file} ${statement.name.text}`);
  }
  return found;
}

/** The import graph, function lengths and store forwards of `src/`. */
export async function measure(): Promise<
  { edges: Edge[]; functions: FunctionLength[]; storeForwards: string[] }
> {
  const edges: Edge[] = [];
  const functions: FunctionLength[] = [];
  const storeForwards: string[] = [];
  for (const path of await sourceFiles()) {
    const file = relative(SRC, path);
    const text = await Deno.readTextFile(path);
    const kind = path.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
    edges.push(...importsOf(file, source));
    functions.push(...functionsOf(file, source));
    storeForwards.push(...storeForwardsOf(file, source));
  }
  return { edges, functions, storeForwards };
}

/** The figures the targets are about, with what each counts. */
export function figuresOf(
  { edges, functions, storeForwards = [] }: {
    edges: Edge[];
    functions: FunctionLength[];
    storeForwards?: string[];
  },
) {
  const up = edges.filter((e) => floorOf(e.from) < floorOf(e.to));
  const long = functions.filter((f) => f.lines > 80).sort((a, b) => b.lines - a.lines);
  return {
    files: new Set(edges.map((e) => e.from)).size,
    imports: edges.length,
    circles: circlesOf(edges),
    upImports: up.map((e) => `${e.from} (${FLOORS[floorOf(e.from)]}) -> ${e.to}`),
    folderPairs: folderPairsOf(edges),
    functionsOver80: long.map((f) => `${f.file}:${f.line} ${f.name} ${f.lines}`),
    functionsOver100: long.filter((f) => f.lines > 100).map((f) => `${f.file} ${f.name}`),
    storeForwards,
  };
}

/**
 * What `--check` fails on: a figure past its target, except the misses `known` names (a folder
 * pair, a function over 100 lines or a store forward not named there is a breach), and a miss
 * `known` names that is gone (taken off the list, so the list stays short and true).
 */
export function breachesOf(
  figures: ReturnType<typeof figuresOf>,
  known: typeof KNOWN = KNOWN,
): string[] {
  const breaches: string[] = [];
  const over = (name: string, count: number, target: number) => {
    if (count > target) breaches.push(`${name}: ${count}, target at most ${target}`);
  };
  over("circles", figures.circles.length, TARGETS.circles);
  over("imports back up a floor", figures.upImports.length, TARGETS.upImports);
  over("functions over 80 lines", figures.functionsOver80.length, TARGETS.functionsOver80);
  const unknown = (name: string, found: string[], named: string[]) => {
    for (const item of found) if (!named.includes(item)) breaches.push(`${name}: ${item}`);
    for (const item of named) {
      if (!found.includes(item)) breaches.push(`${name} named in KNOWN but gone: ${item}`);
    }
  };
  unknown("folder pair importing each other", figures.folderPairs, known.folderPairs);
  unknown("function over 100 lines", figures.functionsOver100, known.functionsOver100);
  unknown(
    "store function forwarded under another name",
    figures.storeForwards,
    known.storeForwards,
  );
  return breaches;
}

if (import.meta.main) {
  const figures = figuresOf(await measure());
  const counts = {
    circles: figures.circles.length,
    upImports: figures.upImports.length,
    folderPairs: figures.folderPairs.length,
    functionsOver100: figures.functionsOver100.length,
    functionsOver80: figures.functionsOver80.length,
    storeForwards: figures.storeForwards.length,
  };
  console.log(`src/: ${figures.files} files, ${figures.imports} relative imports`);
  for (const [key, count] of Object.entries(counts)) {
    const target = TARGETS[key as keyof typeof TARGETS];
    console.log(`${key.padEnd(17)} ${String(count).padStart(4)}  (target: at most ${target})`);
    if (Deno.args.includes("--list")) {
      const list = figures[key as keyof typeof counts] as (string | string[])[];
      for (const item of list) console.log(`  ${Array.isArray(item) ? item.join(" -> ") : item}`);
    }
  }
  const breaches = breachesOf(figures);
  for (const breach of breaches) console.log(`breach: ${breach}`);
  if (Deno.args.includes("--check") && breaches.length > 0) Deno.exit(1);
}
