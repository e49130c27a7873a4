/** Loopback host names whose redirect URIs may use any port (RFC 8252 §7.3). */
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

/**
 * Private-use schemes of known MCP clients that are not reverse-DNS names (RFC 8252 §7.1 asks
 * for reverse-DNS schemes; Cursor and VS Code predate that). Any scheme with a dot is accepted.
 */
const APP_SCHEMES = new Set(["cursor", "vscode", "vscode-insiders", "windsurf", "claude"]);

/** Schemes that are never a redirect target, dotted or not. */
const REFUSED_SCHEMES = new Set(["javascript", "data", "file", "vbscript", "about", "blob"]);

/**
 * Why a redirect URI may not be registered, or null when it may: https; http on a loopback
 * host; or a private-use app scheme. Never a fragment or userinfo (RFC 9700 §2.1, §4.1).
 */
export function redirectUriProblem(uri: string): string | null {
  if (uri.length > 2000) return "is too long";
  if (uri.includes("#")) return "must not contain a fragment";
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return "is not an absolute URI";
  }
  const scheme = url.protocol.slice(0, -1);
  if (url.username || url.password) return "must not contain userinfo";
  if (REFUSED_SCHEMES.has(scheme)) return `uses the refused scheme "${scheme}:"`;
  if (scheme === "https") return url.hostname ? null : "has no host";
  if (scheme === "http") {
    return LOOPBACK_HOSTS.has(url.hostname) ? null : "uses http on a host other than loopback";
  }
  if (APP_SCHEMES.has(scheme) || /^[a-z][a-z0-9-]*(\.[a-z0-9-]+)+$/.test(scheme)) return null;
  return `uses the scheme "${scheme}:", which is neither https nor a private-use app scheme`;
}

/**
 * True when a redirect URI of an authorization request matches a registered one: the same
 * string, or, for http loopback redirects, the same except the port (RFC 8252 §7.3; VS Code
 * falls back to a random port when its usual one is busy).
 */
export function redirectUriMatches(registered: readonly string[], given: string): boolean {
  if (registered.includes(given)) return true;
  const url = loopbackUrl(given);
  if (!url) return false;
  return registered.some((r) => {
    const candidate = loopbackUrl(r);
    return candidate !== null && candidate.hostname === url.hostname &&
      candidate.pathname === url.pathname && candidate.search === url.search;
  });
}

function loopbackUrl(uri: string): URL | null {
  if (uri.includes("#") || !uri.startsWith("http://")) return null;
  try {
    const url = new URL(uri);
    return LOOPBACK_HOSTS.has(url.hostname) && !url.username && !url.password ? url : null;
  } catch {
    return null;
  }
}
