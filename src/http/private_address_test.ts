import assert from "node:assert/strict";
import { isPrivateAddress } from "./private_address.ts";

/** Addresses no metadata document fetch may reach, with the block each belongs to. */
const PRIVATE: [string, string][] = [
  ["0.0.0.0", "this network 0/8"],
  ["0.1.2.3", "this network 0/8"],
  ["10.1.2.3", "private 10/8"],
  ["100.64.0.1", "shared 100.64/10"],
  ["100.127.255.254", "shared 100.64/10"],
  ["127.0.0.1", "loopback 127/8"],
  ["127.255.255.255", "loopback 127/8"],
  ["169.254.169.254", "link-local, cloud metadata"],
  ["172.16.0.1", "private 172.16/12"],
  ["172.31.255.255", "private 172.16/12"],
  ["192.0.0.8", "IETF protocol assignments 192.0.0/24"],
  ["192.0.2.1", "TEST-NET-1"],
  ["192.88.99.1", "6to4 relay anycast"],
  ["192.168.1.1", "private 192.168/16"],
  ["198.18.0.1", "benchmarking 198.18/15"],
  ["198.19.255.255", "benchmarking 198.18/15"],
  ["198.51.100.7", "TEST-NET-2"],
  ["203.0.113.9", "TEST-NET-3"],
  ["224.0.0.1", "multicast"],
  ["239.255.255.250", "multicast"],
  ["240.0.0.1", "reserved 240/4"],
  ["255.255.255.255", "broadcast"],
  ["::", "unspecified"],
  ["::1", "loopback"],
  ["[::1]", "loopback in brackets"],
  ["::7f00:1", "IPv4-compatible loopback"],
  ["::a9fe:a9fe", "IPv4-compatible metadata address"],
  ["::127.0.0.1", "IPv4-compatible, dotted"],
  ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
  ["::ffff:7f00:1", "IPv4-mapped loopback, hex"],
  ["::ffff:8.8.8.8", "IPv4-mapped, even of a public address"],
  ["::ffff:0:7f00:1", "IPv4-translated ::ffff:0:0:0/96"],
  ["64:ff9b::7f00:1", "NAT64 64:ff9b::/96"],
  ["64:ff9b::8.8.8.8", "NAT64 of a public address: still a translator"],
  ["64:ff9b:1::a9fe:a9fe", "local-use NAT64 64:ff9b:1::/48"],
  ["100::1", "discard-only 100::/64"],
  ["2001::1", "Teredo 2001::/32 (in 2001::/23)"],
  ["2001:10::1", "ORCHID (in 2001::/23)"],
  ["2001:1ff:ffff::1", "end of 2001::/23"],
  ["2001:db8::1", "documentation 2001:db8::/32"],
  ["3fff::1", "documentation 3fff::/20"],
  ["2002:7f00:1::", "6to4 of loopback 2002::/16"],
  ["2002:808:808::", "6to4 of a public address"],
  ["fc00::1", "unique local fc00::/7"],
  ["fd12:3456::1", "unique local fc00::/7"],
  ["fe80::1", "link-local fe80::/10"],
  ["febf::1", "link-local fe80::/10"],
  ["fec0::1", "site-local fec0::/10"],
  ["feff::1", "site-local fec0::/10"],
  ["ff02::1", "multicast ff00::/8"],
  ["4000::1", "outside global unicast 2000::/3"],
  ["fe80::1%eth0", "zone id: not parsed, so refused"],
  ["not an address", "unparseable"],
  ["1::2::3", "two ::"],
  ["1:2:3:4:5:6:7:8:9", "nine groups"],
  ["1:2:3:4::5:6:7:8", "`::` standing for no group"],
  ["::ffff:300.1.1.1", "bad dotted tail"],
];

/** Public unicast addresses, which the check must let through. */
const PUBLIC: string[] = [
  "8.8.8.8",
  "93.184.215.14",
  "100.63.255.255",
  "100.128.0.1",
  "172.15.255.255",
  "172.32.0.1",
  "192.0.1.1",
  "192.88.98.1",
  "198.17.255.255",
  "198.20.0.1",
  "223.255.255.255",
  "2001:200::1",
  "2001:4860:4860::8888",
  "2606:4700:4700::1111",
  "2a00:1450:4001::200e",
  "3ffe::1",
  "[2001:4860:4860::8888]",
];

Deno.test("isPrivateAddress refuses every special-purpose IPv4 and IPv6 block", () => {
  for (const [ip, block] of PRIVATE) assert.equal(isPrivateAddress(ip), true, `${ip}: ${block}`);
});

Deno.test("isPrivateAddress lets public unicast addresses through", () => {
  for (const ip of PUBLIC) assert.equal(isPrivateAddress(ip), false, ip);
});

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
  // IPv4-mapped addresses are refused whole (IANA special-purpose), even of a public IPv4.
  assert.ok(isPrivateAddress("::ffff:8.8.8.8"));
  for (const ip of ["93.184.215.14", "8.8.8.8", "2606:4700::1111"]) {
    assert.ok(!isPrivateAddress(ip), ip);
  }
});
