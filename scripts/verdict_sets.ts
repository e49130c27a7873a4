/**
 * Writes synthetic development sets for fitting the verdict (scripts/fit_verdict.ts,
 * docs/answers.md): copies of ../shared/eval/squad with 400 answering pages removed each, so
 * their questions become uncovered while the sibling paragraphs of the same article remain (as
 * in ../shared/eval/squad-abstain). Questions of squad-abstain are left out entirely, so the
 * abstain set's held-out half stays unseen.
 *
 *   deno run --allow-read --allow-write scripts/verdict_sets.ts /tmp/syn 4
 *
 * Set k removes the 400 gold pages that come first when ordered by sha1("k:path").
 */
import { createHash } from "node:crypto";

const [out, count = "4", squad = "../shared/eval/squad", abstain = "../shared/eval/squad-abstain"] =
  Deno.args;
if (!out) throw new Error("usage: verdict_sets.ts out-dir [sets] [squad-dir] [abstain-dir]");
const REMOVED = 400;

const lines = async (file: string) =>
  (await Deno.readTextFile(file)).split("\n").filter((l) => l.trim());
const held = new Set(
  (await lines(`${abstain}/queries.jsonl`)).map((l) => (JSON.parse(l) as { id: string }).id),
);
const queries = (await lines(`${squad}/queries.jsonl`))
  .map((l) => JSON.parse(l) as { id: string; gold: string[] })
  .filter((q) => !held.has(q.id));
const pages = await lines(`${squad}/pages.jsonl`);
const golds = [...new Set(queries.flatMap((q) => q.gold))];
const sha = (s: string) => createHash("sha1").update(s).digest("hex");

for (let k = 1; k <= Number(count); k++) {
  const removed = new Set(
    golds.map((p) => [sha(`${k}:${p}`), p]).sort(([a], [b]) => a!.localeCompare(b!))
      .slice(0, REMOVED).map(([, p]) => p!),
  );
  const dir = `${out}/syn${k}`;
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(
    `${dir}/pages.jsonl`,
    pages.filter((l) => !removed.has((JSON.parse(l) as { path: string }).path)).join("\n") + "\n",
  );
  const rows = queries.map((q) => ({
    ...q,
    id: `${q.id}#${k}`,
    answerable: !q.gold.some((p) => removed.has(p)),
  }));
  await Deno.writeTextFile(
    `${dir}/queries.jsonl`,
    rows.map((r) => JSON.stringify(r)).join("\n") + "\n",
  );
  console.log(`${dir}: ${rows.filter((r) => !r.answerable).length} of ${rows.length} uncovered`);
}
