import assert from "node:assert/strict";
import type { Db } from "../db/db.ts";
import { requestCounts } from "./request_counts.ts";

/** A `rate_limits` of one process's making: counts what each upsert adds, as the SQL does. */
function counterDb() {
  let count = 0;
  const writes: number[] = [];
  const started = new Date();
  const db = ((_strings: TemplateStringsArray, ...values: unknown[]) => {
    const amount = values[1] as number;
    writes.push(amount);
    count += amount;
    return Promise.resolve([{ count, window_started_at: started, now: new Date() }]);
  }) as unknown as Db;
  return { db, writes, other: (n: number) => count += n };
}

Deno.test("a caller far from its budget is counted in process; near it, by the shared counter", async () => {
  const { db, writes } = counterDb();
  const counts = requestCounts();
  const seen = [];
  for (let i = 0; i < 8; i++) seen.push((await counts.count(db, "ip:x", 60, 10)).count);
  assert.deepEqual(seen, [1, 2, 3, 4, 5, 6, 7, 8]);
  // The first request writes; up to half the budget (5) is counted here; past it every request
  // writes, carrying what was counted meanwhile.
  assert.deepEqual(writes, [1, 5, 1, 1]);
});

Deno.test("a caller near its budget sees what other processes counted", async () => {
  const { db, other } = counterDb();
  const counts = requestCounts();
  await counts.count(db, "ip:x", 60, 3);
  other(2); // another process counted two requests of the same caller
  assert.equal((await counts.count(db, "ip:x", 60, 3)).count, 4);
  assert.equal((await counts.count(db, "ip:x", 60, 3)).count, 5);
});
