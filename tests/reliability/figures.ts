/** Writes a full run's figures into docs/reliability.md, between its figure markers. */
import type { RunContext } from "./check.ts";

const DOC = new URL("../../docs/reliability.md", import.meta.url);
const START = "<!-- figures:start -->";
const END = "<!-- figures:end -->";

/** Replaces the figures block of docs/reliability.md (or prints it when the doc has none). */
export async function writeFigures(ctx: RunContext, seconds: number): Promise<void> {
  const cpu = (await Deno.readTextFile("/proc/cpuinfo").catch(() => ""))
    .match(/model name\s*:\s*(.+)/)?.[1] ?? "unknown CPU";
  const lines = [
    START,
    "",
    `Measured ${
      new Date().toISOString().slice(0, 10)
    } with \`deno run -A tests/reliability/run.ts --full\` ` +
    `(${seconds} s) on ${Deno.build.os}, ${navigator.hardwareConcurrency} cores (${cpu}), ` +
    `Deno ${Deno.version.deno}; the machine was shared with other work.`,
    "",
  ];
  for (const [section, figures] of ctx.figures) lines.push(`### ${section}`, "", ...figures, "");
  lines.push(END);
  const block = lines.join("\n");
  const doc = await Deno.readTextFile(DOC).catch(() => null);
  if (!doc || !doc.includes(START) || !doc.includes(END)) {
    console.log(block);
    return;
  }
  const updated = doc.slice(0, doc.indexOf(START)) + block +
    doc.slice(doc.indexOf(END) + END.length);
  await Deno.writeTextFile(DOC, updated);
  // The figures' tables in the repository's own format, so `deno fmt --check` stays clean.
  await new Deno.Command(Deno.execPath(), { args: ["fmt", "-q", DOC.pathname] }).output();
  console.log(`figures written to ${DOC.pathname}`);
}
