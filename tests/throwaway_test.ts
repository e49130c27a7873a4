import assert from "node:assert/strict";
import { openPostgres } from "../src/db/postgres.ts";
import { sweepLeftovers, throwawayName } from "../src/db/throwaway.ts";
import { DATABASE_URL } from "./helpers.ts";

/** A pid no process has here: above Linux's largest (`/proc/sys/kernel/pid_max` is at most 2^22). */
const GONE_PID = 4_194_400;

Deno.test({
  name: "throwaway databases: those of a process that is gone are dropped, ours and others' stay",
  ignore: !DATABASE_URL,
  async fn() {
    const admin = openPostgres(DATABASE_URL!, { max: 1 });
    const suffix = crypto.randomUUID().replace(/-/g, "").slice(0, 8);
    const gone = `wiki_sweep_p${GONE_PID}_${suffix}`;
    const ours = throwawayName("wiki_sweep_");
    const foreign = `wiki_sweepx_p${GONE_PID}_${suffix}`;
    const names = [gone, ours, foreign];
    try {
      for (const name of names) await admin.exec(`CREATE DATABASE ${name}`);
      await sweepLeftovers(admin, "wiki_sweep_");
      const left = (await admin.query<{ datname: string }>(
        "SELECT datname FROM pg_database WHERE datname = ANY($1::text[])",
        [names],
      )).map((r) => r.datname).sort();
      assert.deepEqual(left, [ours, foreign].sort());
    } finally {
      for (const name of names) await admin.exec(`DROP DATABASE IF EXISTS ${name}`);
      await admin.close();
    }
  },
});
