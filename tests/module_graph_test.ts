import assert from "node:assert/strict";

type Dependency = { code?: { specifier: string }; isDynamic?: boolean };
type Module = { specifier: string; npmPackage?: string; dependencies?: Dependency[] };

/** `deno info --json main.ts`: the server's module graph, static and dynamic imports alike. */
async function serverGraph() {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "main.ts"],
    cwd: new URL("../", import.meta.url),
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    roots: string[];
    modules: Module[];
    redirects: Record<string, string>;
  };
  const bySpecifier = new Map(info.modules.map((m) => [m.specifier, m]));
  const resolve = (s: string) => info.redirects[s] ?? s;
  /** The npm packages reached from main.ts, following static imports only or all of them. */
  const packages = (withDynamic: boolean) => {
    const seen = new Set<string>();
    const todo = info.roots.map(resolve);
    while (todo.length > 0) {
      const specifier = todo.pop()!;
      if (seen.has(specifier)) continue;
      seen.add(specifier);
      for (const d of bySpecifier.get(specifier)?.dependencies ?? []) {
        if (d.code && (withDynamic || !d.isDynamic)) todo.push(resolve(d.code.specifier));
      }
    }
    return new Set(
      [...seen].map((s) => /^@?[^@]+/.exec(bySpecifier.get(s)?.npmPackage ?? "")?.[0]).filter(
        Boolean,
      ),
    );
  };
  return { atStart: packages(false), all: packages(true) };
}

Deno.test("the server loads a store's driver and the OpenAI client only when configured to use them", async () => {
  const { atStart, all } = await serverGraph();
  for (const name of ["postgres", "@electric-sql/pglite", "openai"]) {
    assert.ok(all.has(name), `${name} is in the server's graph`);
    assert.ok(!atStart.has(name), `${name} is imported statically from main.ts`);
  }
  // What every deployment serves loads at start.
  for (const name of ["hono", "@modelcontextprotocol/server", "zod"]) {
    assert.ok(atStart.has(name), `${name} is not loaded at start`);
  }
});
