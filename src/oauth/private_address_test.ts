import assert from "node:assert/strict";
import { isPrivateAddress } from "./private_address.ts";

Deno.test("private addresses are recognised in every form", () => {
  for (
    const ip of [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "::1",
      "::",
      "fe80::1",
      "fd00::1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "64:ff9b::a00:1",
      "[::1]",
      "not-an-ip",
    ]
  ) {
    assert.ok(isPrivateAddress(ip), ip);
  }
  for (const ip of ["93.184.215.14", "8.8.8.8", "2606:4700::1111", "::ffff:8.8.8.8"]) {
    assert.ok(!isPrivateAddress(ip), ip);
  }
});
