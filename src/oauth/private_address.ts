/**
 * True when an IP address is not a public unicast address: loopback, private, link-local
 * (cloud metadata at 169.254.169.254), shared, multicast, reserved or documentation ranges,
 * and IPv6 forms that embed one (mapped, NAT64). Unparseable input counts as private.
 */
export function isPrivateAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, "");
  const v4 = parseIpv4(ip);
  if (v4) return isPrivateIpv4(v4);
  const v6 = parseIpv6(ip);
  if (!v6) return true;
  const embedded = v6.slice(0, 5).every((h) => h === 0) && v6[5] === 0xffff ||
    v6[0] === 0x64 && v6[1] === 0xff9b && v6.slice(2, 6).every((h) => h === 0);
  if (embedded) {
    return isPrivateIpv4([v6[6]! >> 8, v6[6]! & 255, v6[7]! >> 8, v6[7]! & 255]);
  }
  const first = v6[0]!;
  return v6.every((h, i) => i === 7 || h === 0) || // :: and ::1
    (first & 0xfe00) === 0xfc00 || // unique local fc00::/7
    (first & 0xffc0) === 0xfe80 || // link-local fe80::/10
    (first & 0xff00) === 0xff00 || // multicast
    first === 0x2001 && v6[1] === 0x0db8; // documentation
}

function isPrivateIpv4([a, b, c]: number[]): boolean {
  return a === 0 || a === 10 || a === 127 || a! >= 224 ||
    a === 100 && b! >= 64 && b! < 128 ||
    a === 169 && b === 254 ||
    a === 172 && b! >= 16 && b! < 32 ||
    a === 192 && b === 168 ||
    a === 192 && b === 0 && (c === 0 || c === 2) ||
    a === 198 && (b === 18 || b === 19 || b === 51 && c === 100) ||
    a === 203 && b === 0 && c === 113;
}

function parseIpv4(ip: string): number[] | null {
  const parts = ip.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) {
    return null;
  }
  return parts.map(Number);
}

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
  const all = [...head, ...Array(fill).fill(0), ...rest, ...tail];
  return all.some(Number.isNaN) ? null : all;
}
