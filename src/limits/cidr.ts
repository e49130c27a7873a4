/**
 * CIDR ranges (`160.79.104.0/21`, `2607:6bc0::/48`) and membership of an address in them,
 * for `SHARED_EGRESS_RANGES`. Addresses are compared as bit strings; an IPv4-mapped IPv6
 * address (`::ffff:1.2.3.4`) counts as its IPv4 address.
 */
export type Cidr = { text: string; bits: string; prefix: number };

/** Parses a CIDR, or returns null when it is not one. */
export function parseCidr(text: string): Cidr | null {
  const [address, length, extra] = text.trim().split("/");
  if (!address || extra !== undefined) return null;
  const bits = addressBits(address);
  if (bits === null) return null;
  const prefix = length === undefined ? bits.length : Number(length);
  if (
    !Number.isInteger(prefix) || prefix < 0 || prefix > bits.length || !/^\d*$/.test(length ?? "")
  ) {
    return null;
  }
  return { text: text.trim(), bits: bits.slice(0, prefix), prefix };
}

/** The first range of `ranges` holding `address`, or null. */
export function rangeOf(ranges: Cidr[], address: string): Cidr | null {
  // No ranges configured (the default): nothing to parse the address for.
  if (ranges.length === 0) return null;
  const bits = addressBits(address);
  if (bits === null) return null;
  return ranges.find((r) =>
    (r.bits.length === 0 || bits.length === (r.text.includes(":") ? 128 : 32)) &&
    bits.startsWith(r.bits)
  ) ?? null;
}

function addressBits(address: string): string | null {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return addressBits(mapped[1]!);
  if (/^\d+\.\d+\.\d+\.\d+$/.test(address)) {
    const parts = address.split(".").map(Number);
    if (parts.some((p) => p > 255)) return null;
    return parts.map((p) => p.toString(2).padStart(8, "0")).join("");
  }
  const clean = address.replace(/^\[|\]$/g, "");
  if (!clean.includes(":") || !/^[0-9a-f:]+$/i.test(clean)) return null;
  const halves = clean.split("::");
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (groups.some((g) => !/^[0-9a-f]{1,4}$/i.test(g))) return null;
  return groups.map((g) => parseInt(g, 16).toString(2).padStart(16, "0")).join("");
}
