import assert from "node:assert/strict";
import { parseArrayLiteral } from "./parse_array_literal.ts";

const text = (x: string) => x;

Deno.test("parseArrayLiteral reads plain, quoted and escaped elements", () => {
  assert.deepEqual(parseArrayLiteral("{zucchini,peel}", text), ["zucchini", "peel"]);
  assert.deepEqual(parseArrayLiteral('{"a b","c,d","e \\"f\\"","g\\\\h"}', text), [
    "a b",
    "c,d",
    'e "f"',
    "g\\h",
  ]);
  assert.deepEqual(parseArrayLiteral("{}", text), []);
  assert.deepEqual(parseArrayLiteral('{"",x}', text), ["", "x"]);
});

Deno.test("parseArrayLiteral reads NULL as null, nested arrays, and elements through their parser", () => {
  assert.deepEqual(parseArrayLiteral("{1,NULL,3}", Number), [1, null, 3]);
  assert.deepEqual(parseArrayLiteral('{"NULL"}', text), ["NULL"]);
  assert.deepEqual(parseArrayLiteral("{{1,2},{3,4}}", Number), [[1, 2], [3, 4]]);
  assert.deepEqual(parseArrayLiteral("{t,f}", (x) => x === "t"), [true, false]);
  assert.deepEqual(parseArrayLiteral("{0.5,-2e3}", Number), [0.5, -2000]);
});
