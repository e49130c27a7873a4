/** The shape every reliability check shares. */

/** One verdict: printed as `check: ok <name>` or `check: FAILED <name>` with the detail. */
export type Verdict = { name: string; ok: boolean; detail?: string };

/** What a check is given: the run's length, PostgreSQL, and where to put its figures. */
export type RunContext = {
  mode: "short" | "full";
  /** A PostgreSQL server to make databases on (`DATABASE_URL`), if there is one. */
  databaseUrl: string | undefined;
  /** Reports a verdict as soon as it is known. */
  verdict(v: Verdict): void;
  /** Markdown lines of figures, by section, for docs/reliability.md. */
  figures: Map<string, string[]>;
};

/** Adds figure lines under a section heading. */
export function addFigures(ctx: RunContext, section: string, ...lines: string[]): void {
  const list = ctx.figures.get(section) ?? [];
  list.push(...lines);
  ctx.figures.set(section, list);
}

/** Counts of values, as `200: 9, 429: 1`, in key order. */
export function tally(values: (string | number)[]): string {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(String(v), (counts.get(String(v)) ?? 0) + 1);
  return [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k}: ${n}`).join(
    ", ",
  );
}
