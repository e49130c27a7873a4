import assert from "node:assert/strict";
import { arrayLiteral } from "../src/db/postgres.ts";
import { freshDb } from "./helpers.ts";

Deno.test("an array parameter reaches the database whole, whatever its strings hold", async () => {
  await using db = await freshDb({ migrate: false });
  const texts = ['a"b', "c\\d", "x,y", "{z}", "NULL", "", "notes"];
  const [row] = await db<{ t: string[]; n: number[] }>`
    SELECT ${texts}::text[] AS t, ${[3, 1, 2]}::bigint[] AS n`;
  assert.deepEqual(row!.t, texts);
  assert.deepEqual(row!.n.map(Number), [3, 1, 2]);
  const [one] = await db<{ hit: boolean }>`SELECT 'notes' = ANY(${["notes"]}::text[]) AS hit`;
  assert.equal(one!.hit, true);
});

Deno.test("arrays are written as PostgreSQL's literals, so no statement depends on a described type", () => {
  // Sent with no type, postgres.js wrote ["notes"] as "notes": a malformed array literal.
  assert.equal(arrayLiteral(["notes"]), '{"notes"}');
  assert.equal(arrayLiteral(['a"b', "c\\d", null]), '{"a\\"b","c\\\\d",NULL}');
  assert.equal(arrayLiteral([1, 2]), "{1,2}");
  assert.equal(arrayLiteral([]), "{}");
  assert.equal(arrayLiteral("x"), "x");
  const nested = [[1]];
  assert.equal(arrayLiteral(nested), nested, "what it does not know is left to the driver");
});
