import https from "node:https";
import { Readable } from "node:stream";

/**
 * How the server reaches the network for metadata documents; tests pass fakes. `fetch`
 * must connect to `address`, the address `resolveDns` gave and the caller checked, never
 * resolve the host again: a second lookup could answer differently (DNS rebinding).
 */
export type DocumentFetcher = {
  fetch: (url: string, init: RequestInit, address: string) => Promise<Response>;
  resolveDns: (host: string) => Promise<string[]>;
};

/** The real network: `Deno.resolveDns` (A and AAAA records), and `pinnedFetch`. */
export const networkFetcher: DocumentFetcher = {
  fetch: (url, init, address) => pinnedFetch(url, init, address),
  async resolveDns(host) {
    const [a, aaaa] = await Promise.all([
      Deno.resolveDns(host, "A").catch(() => [] as string[]),
      Deno.resolveDns(host, "AAAA").catch(() => [] as string[]),
    ]);
    return [...a, ...aaaa];
  },
};

/**
 * A request to `url` over a connection to `address`: node's `lookup` hook answers the socket's
 * name lookup with the checked address, so nothing resolves the host a second time, while
 * TLS still sends the URL's host as SNI and verifies the certificate against it, and the
 * `Host` header names it. No redirects are followed. `init.method` defaults to GET; a body
 * must be bytes. `request` is node's `https.request`, or `http.request` in tests. Git sync
 * uses it too, for the same reason.
 */
export function pinnedFetch(
  url: string,
  init: RequestInit,
  address: string,
  request: typeof https.request = https.request,
): Promise<Response> {
  const family = address.includes(":") ? 6 : 4;
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: init.method ?? "GET",
      headers: Object.fromEntries(new Headers(init.headers)),
      signal: init.signal ?? undefined,
      lookup: ((_host: string, options: { all?: boolean }, callback: LookupCallback) => {
        if (options?.all) callback(null, [{ address, family }]);
        else callback(null, address, family);
      }) as never,
    }, (res) => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(res.headers)) {
        if (value === undefined) continue;
        for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
      }
      const status = res.statusCode ?? 502;
      const body = status === 204 || status === 304
        ? null
        : Readable.toWeb(res) as ReadableStream<Uint8Array>;
      resolve(new Response(body, { status, headers }));
    });
    req.on("error", reject);
    const body = init.body;
    if (body instanceof ArrayBuffer || body instanceof Uint8Array) req.end(new Uint8Array(body));
    else req.end();
  });
}

type LookupCallback = (
  error: Error | null,
  address: string | { address: string; family: number }[],
  family?: number,
) => void;
