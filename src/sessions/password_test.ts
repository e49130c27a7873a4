import assert from "node:assert/strict";
import { hashPassword, needsRehash, PASSWORD_PARAMS, verifyPassword } from "./password.ts";

const PASSWORD = "correct horse battery staple";
const CHEAP = { N: 2 ** 10, r: 8, p: 1 };

Deno.test("a hash records its own cost, so hashes made at any cost verify at any other", async () => {
  const cheap = await hashPassword(PASSWORD, CHEAP);
  assert.match(cheap, /^scrypt\$1024\$8\$1\$/);
  assert.equal(await verifyPassword(PASSWORD, cheap), true, "verified under production params");
  assert.equal(await verifyPassword(`${PASSWORD}!`, cheap, CHEAP), false);
  assert.equal(needsRehash(cheap, CHEAP), false);
  assert.equal(needsRehash(cheap), true, "a cheap hash is upgraded under production params");
  assert.equal(await verifyPassword(PASSWORD, null, CHEAP), false);
});

Deno.test("production hashes use scrypt N = 2^15, r = 8, p = 1", () => {
  assert.deepEqual(PASSWORD_PARAMS, { N: 2 ** 15, r: 8, p: 1 });
});
