import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { getCookie, setCookie } from "hono/cookie";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { decodeBase64url, encodeBase64url } from "../lib/base64url.ts";
import { constantTimeTextEqual, randomSecret } from "../lib/secrets.ts";
import { webCookie } from "./sessions.ts";

/** The hidden form field that carries the token. */
export const CSRF_FIELD = "_csrf";

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * CSRF protection for the web routes (after `sessionMiddleware`); sets `csrfToken` for forms.
 *
 * - Signed in, the token is an HMAC of the session secret: one per session, nothing stored,
 *   useless without the HttpOnly cookie it came from, and dead when the session ends.
 * - Signed out (the sign-in and sign-up forms), a double-submit cookie: a random value in a
 *   cookie and the same in the form. `__Host-` over https keeps sibling hosts from planting
 *   one; a signature would add nothing here, since before sign-in there is nothing to bind it
 *   to that an attacker could not also obtain.
 * - Every POST must come from our own origin when the browser says where it came from
 *   (`Sec-Fetch-Site`, `Origin`): a second, independent check.
 * - A post that cannot pass is refused before its body is read (the token is in the body):
 *   cross-site, signed out without the cookie the form came with, or signed out where only
 *   members post (`signedIn`). Nobody gets a server to parse a big body for nothing.
 *
 * @param options.signedIn Posts here need a session (every form is a member's), or which do.
 * @param options.maxBody Largest body read, in bytes, applied only once the post may pass
 *   (Hono's `bodyLimit` buffers a body without `Content-Length` as it counts).
 */
export function csrfProtection(
  deps: Pick<Deps, "config">,
  options: {
    signedIn?: boolean | ((path: string) => boolean);
    maxBody?: number | ((path: string) => number);
  } = {},
): MiddlewareHandler {
  // One Hono body limit per size; the size may depend on the path (a space's imports).
  const limits = new Map<number, MiddlewareHandler>();
  const maxFor = (path: string): number | undefined =>
    typeof options.maxBody === "function" ? options.maxBody(path) : options.maxBody;
  const limitFor = (path: string): MiddlewareHandler | null => {
    const max = maxFor(path);
    if (max === undefined) return null;
    let limit = limits.get(max);
    if (!limit) limits.set(max, limit = bodyLimit({ maxSize: max }));
    return limit;
  };
  return async (c, next) => {
    const sessionToken = c.get("sessionToken");
    const cookie = webCookie(deps.config, "wiki_csrf");
    let expected: string;
    let canPass = true;
    if (sessionToken) {
      expected = await csrfTokenOfSession(sessionToken);
    } else {
      const existing = getCookie(c, cookie.name);
      if (existing && TOKEN_SHAPE.test(existing)) expected = existing;
      else {
        // A new random value: no form can carry it yet.
        canPass = false;
        expected = randomSecret();
        setCookie(c, cookie.name, expected, cookie.options);
      }
      const signedIn = typeof options.signedIn === "function"
        ? options.signedIn(c.req.path)
        : options.signedIn;
      if (signedIn) canPass = false;
    }
    c.set("csrfToken", expected);
    if (c.req.method !== "GET" && c.req.method !== "HEAD") {
      // A declared size over the limit is refused first: it costs nothing to read.
      const max = maxFor(c.req.path);
      if (max !== undefined && Number(c.req.header("content-length") ?? 0) > max) {
        throw new AppError("payload_too_large", `What you sent is over ${max} bytes`);
      }
      if (isCrossSite(c, deps.config.baseUrl)) {
        throw new AppError("forbidden", "Cross-site form posts are not accepted");
      }
      // A member's form posted after the session ended (signed out in another tab, expired,
      // a password changed): say so, so the page can offer to sign in and send it again.
      if (!canPass && !sessionToken && options.signedIn) throw signedOutForm();
      if (!canPass) throw expiredForm();
      let body: Record<string, unknown> = {};
      const read = async () => {
        body = await c.req.parseBody().catch(() => {
          // A malformed multipart body (no boundary, cut short) is the sender's error.
          throw new AppError("bad_request", "The form cannot be read: send it again");
        });
      };
      const limit = limitFor(c.req.path);
      if (limit) await limit(c, read);
      else await read();
      const given = body[CSRF_FIELD];
      if (typeof given !== "string" || !constantTimeTextEqual(given, expected)) throw expiredForm();
    }
    await next();
  };
}

function signedOutForm(): AppError {
  return new AppError(
    "unauthorized",
    "You are signed out (the session ended, or you signed out in another tab), so this was " +
      "not saved. Sign in, and send it again: the editor keeps your text in this browser",
  );
}

function expiredForm(): AppError {
  return new AppError(
    "forbidden",
    "This form has expired or did not come from this site: reload the page and try again",
  );
}

/** The CSRF token of a session: HMAC-SHA256 keyed by the session secret. */
export async function csrfTokenOfSession(sessionToken: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new Uint8Array(decodeBase64url(sessionToken)),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode("wiki csrf v1"));
  return encodeBase64url(new Uint8Array(mac));
}

/**
 * True when the browser tells us the request came from another site: `Sec-Fetch-Site` (Fetch
 * Metadata) other than `same-origin` or `none` (`same-site` too: a sibling subdomain may be
 * someone else's), or an `Origin` other than ours. `Origin: null` counts as cross-site unless
 * Fetch Metadata says same-origin: Chromium sends `null` for a page's own form posts when the
 * page was served with `Referrer-Policy: no-referrer`, as the consent page is. Neither header:
 * an old browser or a non-browser client, which the token check still covers.
 */
function isCrossSite(c: Context, baseUrl: string): boolean {
  const site = c.req.header("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") return true;
  const origin = c.req.header("origin");
  if (origin === undefined) return false;
  if (origin === "null") return site !== "same-origin";
  return origin !== new URL(baseUrl).origin && origin !== new URL(c.req.url).origin;
}

declare module "hono" {
  interface ContextVariableMap {
    /** The CSRF token forms of this request must carry (web routes only). */
    csrfToken: string;
  }
}
