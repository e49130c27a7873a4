import assert from "node:assert/strict";
import { openPostgres } from "../src/db/postgres.ts";

const DATABASE_URL = Deno.env.get("DATABASE_URL") || undefined;

// Over 1 KiB of text: postgres.js writes such a statement to the socket at once. As the first
// statement on a new connection it was, now and then, described before the connection's array
// types were known, and its arrays came back as text for as long as the connection lived (the
// replica's search statistics: docs/performance.md, "The replica test's misses").
const LONG = `SELECT ARRAY['zucchini', 'peel', 'a "quoted" word, too']::text[] AS terms,
  ARRAY[1, 2]::int4[] AS dfs, ARRAY[3, 4]::int8[] AS ids, ARRAY[0.5]::float8[] AS scores,
  ARRAY[true, false]::bool[] AS flags, ARRAY[]::text[] AS empty, $1::int AS n
  /* ${"a statement longer than a kibibyte ".repeat(40)} */`;

Deno.test({
  name: "a long statement, first on each new connection, gives its arrays as arrays",
  ignore: !DATABASE_URL,
  async fn() {
    const seen: string[] = [];
    // Ten new connections at a time, 300 in all: the race needed a busy moment to show.
    for (let batch = 0; batch < 30; batch++) {
      await Promise.all(Array.from({ length: 10 }, async (_, i) => {
        const db = openPostgres(DATABASE_URL!, { max: 1 });
        try {
          for (let run = 0; run < 2; run++) {
            const [row] = await db.query<Record<string, unknown>>(LONG, [batch * 10 + i]);
            seen.push(JSON.stringify(row));
          }
        } finally {
          await db.close();
        }
      }));
    }
    const expected = JSON.stringify({
      terms: ["zucchini", "peel", 'a "quoted" word, too'],
      dfs: [1, 2],
      ids: [3, 4],
      scores: [0.5],
      flags: [true, false],
      empty: [],
    });
    const wrong = seen.filter((row) =>
      JSON.stringify({ ...JSON.parse(row), n: undefined }) !== expected
    );
    assert.deepEqual(wrong, []);
  },
});
