import type { Db } from "../../src/db/db.ts";

/** What the figures were measured on, read from /proc and the tools themselves. */
export type Machine = {
  cpu: string;
  cpu_mhz: number;
  cores: number;
  ram_gib: number;
  kernel: string;
  deno: string;
  v8: string;
  typescript: string;
  postgres: string | null;
  pgvector: string | null;
  pglite: string | null;
  load_average_at_start: number[];
};

/** Describes this machine and the stores' server versions. */
export async function describeMachine(stores: { pglite?: Db; postgres?: Db }): Promise<Machine> {
  const cpuinfo = await readProc("/proc/cpuinfo").catch(() => "");
  const version = async (db: Db | undefined) =>
    db ? (await db<{ v: string }>`SELECT version() AS v`)[0]!.v.split(" on ")[0]! : null;
  const pgvector = stores.postgres
    ? (await stores.postgres<{ v: string }>`
        SELECT extversion AS v FROM pg_extension WHERE extname = 'vector'`)[0]?.v ?? null
    : null;
  return {
    cpu: /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? "unknown",
    cpu_mhz: Math.round(Number(/^cpu MHz\s*:\s*(.+)$/m.exec(cpuinfo)?.[1] ?? 0)),
    cores: navigator.hardwareConcurrency,
    ram_gib: Math.round(Deno.systemMemoryInfo().total / 2 ** 30 * 10) / 10,
    kernel: `${Deno.build.os} ${Deno.osRelease()}`,
    deno: Deno.version.deno,
    v8: Deno.version.v8,
    typescript: Deno.version.typescript,
    postgres: await version(stores.postgres),
    pgvector,
    pglite: stores.pglite ? `${await version(stores.pglite)} (WebAssembly, in process)` : null,
    load_average_at_start: Deno.loadavg(),
  };
}

/**
 * A file of /proc, read by `cat`: Deno asks for --allow-all to read /proc directly, and the
 * bench task grants --allow-run rather than that.
 */
export async function readProc(path: string): Promise<string> {
  const out = await new Deno.Command("cat", { args: [path], stdout: "piped", stderr: "null" })
    .output();
  if (!out.success) throw new Error(`Cannot read ${path}`);
  return new TextDecoder().decode(out.stdout);
}
