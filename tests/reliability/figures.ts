/** Writes a full run's figures into docs/reliability.md, between its figure markers. */
import type { RunContext } from "./check.ts";

const DOC = new URL("../../docs/reliability.md", import.meta.url);
const START = "<!-- figures:start -->";
const END = "<!-- figures:end -->";

/**
 * Replaces the figures block of docs/reliability.md (or prints it when the doc has none). After
 * a run of some groups only (`--only`), replaces just their sections and keeps the others.
 */
export async function writeFigures(
  ctx: RunContext,
  seconds: number,
  only?: string,
): Promise<void> {
  const cpu = (await Deno.readTextFile("/proc/cpuinfo").catch(() => ""))
    .match(/model name\s*:\s*(.+)/)?.[1] ?? "unknown CPU";
  const today = new Date().toISOString().slice(0, 10);
  const doc = await Deno.readTextFile(DOC).catch(() => null);
  const old = doc?.includes(START) && doc.includes(END)
    ? doc.slice(doc.indexOf(START) + START.length, doc.indexOf(END))
    : null;
  const sections = new Map<string, string[]>();
  let header = [
    `Measured ${today} with \`deno run -A tests/reliability/run.ts --full\` (${seconds} s) on ` +
    `${Deno.build.os}, ${navigator.hardwareConcurrency} cores (${cpu}), Deno ` +
    `${Deno.version.deno}; the machine was shared with other work.`,
  ];
  if (only && old) {
    const parts = old.split(/^### /m);
    header = parts[0]!.trim().split("\n");
    for (const part of parts.slice(1)) {
      const [title, ...body] = part.trimEnd().split("\n");
      sections.set(title!, body);
    }
  }
  for (const [section, figures] of ctx.figures) {
    const note = only ? [`_Re-measured ${today} (\`--full --only ${only}\`)._`, ""] : [];
    sections.set(section, ["", ...note, ...figures]);
  }
  const lines = [START, "", ...header, ""];
  for (const [section, body] of sections) lines.push(`### ${section}`, ...body, "");
  lines.push(END);
  const block = lines.join("\n");
  if (!doc || old === null) {
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
