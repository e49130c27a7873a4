/**
 * True when an IP address is not a public unicast address, per the IANA special-purpose
 * address registries (RFC 6890 and updates). IPv4: this network, private, shared (CGN),
 * loopback, link-local (cloud metadata at 169.254.169.254), IETF protocol assignments,
 * documentation, 6to4 relay, benchmarking, multicast, reserved and broadcast. IPv6: anything
 * outside global unicast 2000::/3 (so ::, ::1, IPv4-compatible and -mapped and -translated
 * forms, NAT64 64:ff9b::/96 and 64:ff9b:1::/48, discard 100::/64, unique local, link-local,
 * site-local fec0::/10 and multicast), and inside it 2001::/23 (Teredo, ORCHID…),
 * documentation 2001:db8::/32 and 3fff::/20, and 6to4 2002::/16. An address embedding an
 * IPv4 one is refused whole rather than judged by the embedded address. Unparseable input
 * counts as private.
 */
export function isPrivateAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, "");
  const v4 = parseIpv4(ip);
  if (v4) return isPrivateIpv4(v4);
  const v6 = parseIpv6(ip);
  if (!v6) return true;
  const [first, second] = [v6[0]!, v6[1]!];
  if ((first & 0xe000) !== 0x2000) return true; // outside 2000::/3
  return first === 0x2001 && second < 0x0200 || // 2001::/23
    first === 0x2001 && second === 0x0db8 || // documentation
    first === 0x3fff && second < 0x1000 || // documentation 3fff::/20
    first === 0x2002; // 6to4: embeds an IPv4 address
}

/** IPv4 special-purpose blocks as [first octets, prefix length]. */
const PRIVATE_V4: [number[], number][] = [
  [[0], 8], // "this network"
  [[10], 8], // private
  [[100, 64], 10], // shared address space (carrier-grade NAT)
  [[127], 8], // loopback
  [[169, 254], 16], // link-local, cloud metadata
  [[172, 16], 12], // private
  [[192, 0, 0], 24], // IETF protocol assignments
  [[192, 0, 2], 24], // documentation TEST-NET-1
  [[192, 88, 99], 24], // 6to4 relay anycast
  [[192, 168], 16], // private
  [[198, 18], 15], // benchmarking
  [[198, 51, 100], 24], // documentation TEST-NET-2
  [[203, 0, 113], 24], // documentation TEST-NET-3
  [[224], 4], // multicast
  [[240], 4], // reserved, and the broadcast 255.255.255.255
];

function isPrivateIpv4(bytes: number[]): boolean {
  const value = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
  return PRIVATE_V4.some(([start, bits]) => {
    const base = ((start[0] ?? 0) << 24 | (start[1] ?? 0) << 16 | (start[2] ?? 0) << 8) >>> 0;
    const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
    return ((value & mask) >>> 0) === base;
  });
}

function parseIpv4(ip: string): number[] | null {
  const parts = ip.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) {
    return null;
  }
  return parts.map(Number);
}

/** The eight 16-bit groups of an IPv6 address (`::` and a dotted IPv4 tail allowed), or null. */
function parseIpv6(ip: string): number[] | null {
  if (!/^[0-9a-f:.]+$/i.test(ip) || !ip.includes(":")) return null;
  let tail: number[] = [];
  let text = ip;
  const v4 = /:(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  if (v4) {
    const bytes = parseIpv4(v4[1]!);
    if (!bytes) return null;
    tail = [bytes[0]! << 8 | bytes[1]!, bytes[2]! << 8 | bytes[3]!];
    text = ip.slice(0, -v4[1]!.length) + "0";
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const parse = (s: string) =>
    s ? s.split(":").map((h) => /^[0-9a-f]{1,4}$/i.test(h) ? parseInt(h, 16) : NaN) : [];
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  if (v4) (halves.length === 2 ? rest : head).pop();
  const groups = 8 - tail.length;
  const fill = halves.length === 2 ? groups - head.length - rest.length : 0;
  if (fill < 0 || head.length + rest.length + fill !== groups) return null;
  if (halves.length === 2 && fill === 0) return null; // `::` must stand for at least one group
  const all = [...head, ...Array(fill).fill(0), ...rest, ...tail];
  return all.some(Number.isNaN) ? null : all;
}
