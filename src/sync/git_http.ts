import { AppError } from "../errors.ts";
import { pinnedFetch } from "../http/pinned_fetch.ts";
import { isPrivateAddress } from "../http/private_address.ts";

/** Resolves a host name to its addresses; tests may pass a fake. */
export type ResolveDns = (host: string) => Promise<string[]>;

/** A and AAAA records through `Deno.resolveDns`. */
export const resolveDns: ResolveDns = async (host) => {
  const [a, aaaa] = await Promise.all([
    Deno.resolveDns(host, "A").catch(() => [] as string[]),
    Deno.resolveDns(host, "AAAA").catch(() => [] as string[]),
  ]);
  return [...a, ...aaaa];
};

/**
 * Checks a repository URL before anything is fetched from it, the SSRF guard of the OAuth
 * metadata fetches: `https` only, no user name or password in it, and a host that is not, and
 * does not resolve to, a loopback, private or link-local address. A `host:port` listed in
 * `SYNC_ALLOW_HOSTS` is exempt (plain http allowed too): tests and self-hosted servers.
 */
export async function checkRepositoryUrl(
  raw: string,
  allowHosts: string[],
  resolve: ResolveDns = resolveDns,
  /** A request Git makes (`info/refs?service=…`) may carry a query. */
  request = false,
): Promise<URL> {
  return (await checkRepositoryAddress(raw, allowHosts, resolve, request)).url;
}

/**
 * `checkRepositoryUrl`, and the address that was checked: the fetch connects to it, so a second
 * name resolution (DNS rebinding) cannot send it elsewhere. Null for an allowed host.
 */
export async function checkRepositoryAddress(
  raw: string,
  allowHosts: string[],
  resolve: ResolveDns,
  request: boolean,
): Promise<{ url: URL; address: string | null }> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError("bad_request", `The repository URL "${raw}" is not a URL`);
  }
  const allowed = allowHosts.includes(url.host.toLowerCase());
  if (url.protocol !== "https:" && !(allowed && url.protocol === "http:")) {
    throw new AppError("bad_request", `The repository URL "${raw}" must use https`);
  }
  if (url.username || url.password || url.hash || (url.search && !request)) {
    throw new AppError(
      "bad_request",
      `The repository URL "${raw}" may not carry a user, password, query or fragment: ` +
        "give an access token separately",
    );
  }
  if (allowed) return { url, address: null };
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (/(^|\.)(localhost|local|internal)$/i.test(host)) {
    throw new AppError("bad_request", `The repository host "${host}" is not public`);
  }
  const literal = /^[\d.]+$/.test(host) || host.includes(":");
  const addresses = literal ? [host] : await resolve(host);
  if (addresses.length === 0) {
    throw new AppError("sync_failed", `The repository host "${host}" does not resolve`);
  }
  if (addresses.some(isPrivateAddress)) {
    throw new AppError("bad_request", `The repository host "${host}" is not a public address`);
  }
  return { url, address: addresses[0]! };
}

type GitRequest = {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: AsyncIterable<Uint8Array> | Uint8Array[];
};

/**
 * The HTTP client handed to isomorphic-git in place of `isomorphic-git/http/web`: the same
 * `fetch` underneath, but every URL is checked with `checkRepositoryUrl`, redirects are refused
 * (a redirect could lead to an internal address), and a response body over `maxBytes` (the
 * pack) stops the fetch.
 */
export function guardedGitHttp(
  options: { allowHosts: string[]; maxBytes: number; resolve?: ResolveDns; signal?: AbortSignal },
) {
  return {
    async request(req: GitRequest) {
      const { address } = await checkRepositoryAddress(
        req.url,
        options.allowHosts,
        options.resolve ?? resolveDns,
        true,
      );
      const chunks: Uint8Array[] = [];
      if (req.body) { for await (const chunk of req.body) chunks.push(chunk); }
      const body = chunks.length ? await new Blob(chunks as BlobPart[]).arrayBuffer() : undefined;
      const init = {
        method: req.method ?? "GET",
        headers: req.headers,
        body,
        redirect: "manual" as const,
        signal: options.signal,
      };
      // A checked public host is reached at the address that was checked (no second lookup);
      // an allowed host (tests, self-hosted Git) through the ordinary fetch.
      const response = address
        ? await pinnedFetch(req.url, init, address)
        : await fetch(req.url, init);
      if (response.status >= 300 && response.status < 400) {
        await response.body?.cancel();
        throw new AppError(
          "sync_failed",
          `The repository answered with a redirect (${response.status}): give its final URL`,
        );
      }
      const headers: Record<string, string> = {};
      response.headers.forEach((value, key) => headers[key] = value);
      return {
        url: req.url,
        method: req.method ?? "GET",
        statusCode: response.status,
        statusMessage: response.statusText,
        headers,
        body: capped(response, options.maxBytes),
      };
    },
  };
}

async function* capped(response: Response, maxBytes: number): AsyncGenerator<Uint8Array> {
  if (!response.body) return;
  let total = 0;
  for await (const chunk of response.body) {
    total += chunk.length;
    if (total > maxBytes) {
      await response.body.cancel().catch(() => {});
      throw new AppError(
        "sync_failed",
        `The repository is too large: its pack is over ${maxBytes} bytes`,
      );
    }
    yield chunk;
  }
}
