import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { AccountRow } from "../db/account_row.ts";
import type { Config } from "../config/config.ts";
import type { Db } from "../db/db.ts";
import type { Deps } from "../deps.ts";
import { randomSecret } from "../lib/secrets.ts";
import { sha256Hex } from "../lib/sha256.ts";
import { deleteSession, insertSession, selectLiveSession, touchSession } from "./store.ts";

const DAY_MS = 86_400_000;
/** A session lasts 30 days from its last renewal. */
const SESSION_MS = 30 * DAY_MS;
/** A session in use is renewed once less than half its life is left (one write a fortnight). */
const RENEW_BELOW_MS = 15 * DAY_MS;
/** 256 random bits in base64url. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** A session as created: `token` goes in the cookie and is never stored. */
export type NewSession = { token: string; expiresAt: Date };

/** Starts a session for an account (after sign-up or sign-in). */
export async function createSession(
  db: Db,
  accountId: string,
  userAgent: string,
): Promise<NewSession> {
  const token = randomSecret();
  const expiresAt = new Date(Date.now() + SESSION_MS);
  await insertSession(db, {
    id_hash: await sha256Hex(token),
    account_id: accountId,
    expires_at: expiresAt,
    user_agent: userAgent.slice(0, 300),
  });
  return { token, expiresAt };
}

/**
 * The account of a live session, or null. A session seen after more than a minute is
 * touched; past half its life its expiry moves to 30 days from now, returned as `renewedUntil`
 * so the cookie can follow.
 */
export async function validateSession(
  db: Db,
  token: string,
): Promise<{ account: AccountRow; renewedUntil: Date | null } | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const idHash = await sha256Hex(token);
  const found = await selectLiveSession(db, idHash);
  if (!found) return null;
  const now = Date.now();
  const { session } = found;
  let renewedUntil: Date | null = null;
  if (session.expires_at.getTime() - now < RENEW_BELOW_MS) {
    renewedUntil = new Date(now + SESSION_MS);
  }
  if (renewedUntil || now - session.last_seen_at.getTime() > 60_000) {
    await touchSession(db, idHash, renewedUntil ?? session.expires_at);
  }
  return { account: found.account, renewedUntil };
}

/**
 * The id (a hash of the secret, never the secret) of the live session a web request's cookie
 * names, or null; reads only, for keying the web budget before the session middleware runs
 * (the mount hands it to `webBudget`).
 */
export async function liveSessionId(
  c: Context,
  deps: Pick<Deps, "config" | "db">,
): Promise<string | null> {
  const token = getCookie(c, webCookie(deps.config, "wiki_session").name);
  if (!token || !TOKEN_SHAPE.test(token)) return null;
  const idHash = await sha256Hex(token);
  return (await selectLiveSession(deps.db, idHash)) ? idHash : null;
}

/** Ends a session server-side: its cookie signs nobody in any more. */
export async function invalidateSession(db: Db, token: string): Promise<void> {
  if (TOKEN_SHAPE.test(token)) await deleteSession(db, await sha256Hex(token));
}

/**
 * A cookie of the web app: over https `__Host-` prefixed (RFC 6265bis §4.1.3.2: Secure, no
 * Domain, Path=/, so no sibling host can set or shadow it) and Secure; always HttpOnly and
 * SameSite=Lax (sent on top-level navigation, not on cross-site POSTs).
 */
export function webCookie(config: Pick<Config, "baseUrl">, name: string) {
  const secure = config.baseUrl.startsWith("https:");
  return {
    name: secure ? `__Host-${name}` : name,
    options: { httpOnly: true, secure, sameSite: "Lax", path: "/" } as const,
  };
}

/** Sets the session cookie to expire with the session. */
export function setSessionCookie(c: Context, config: Config, token: string, expiresAt: Date) {
  const cookie = webCookie(config, "wiki_session");
  const maxAge = Math.round((expiresAt.getTime() - Date.now()) / 1000);
  setCookie(c, cookie.name, token, { ...cookie.options, maxAge });
}

/** Removes the session cookie. */
export function clearSessionCookie(c: Context, config: Config) {
  const cookie = webCookie(config, "wiki_session");
  deleteCookie(c, cookie.name, cookie.options);
}

/**
 * Resolves the session cookie of a web request and sets `account` (null when signed out) and
 * `sessionToken` on the context. Mounted on web routes only: `/mcp` and `/api` never look at
 * cookies, so a browser's ambient credentials cannot reach them.
 */
export function sessionMiddleware(deps: Pick<Deps, "config" | "db">): MiddlewareHandler {
  return async (c, next) => {
    const token = getCookie(c, webCookie(deps.config, "wiki_session").name);
    const valid = token ? await validateSession(deps.db, token) : null;
    if (token && !valid) clearSessionCookie(c, deps.config);
    if (token && valid?.renewedUntil) {
      setSessionCookie(c, deps.config, token, valid.renewedUntil);
    }
    c.set("account", valid?.account ?? null);
    c.set("sessionToken", valid ? token! : null);
    await next();
  };
}

declare module "hono" {
  interface ContextVariableMap {
    /** The signed-in account of a web request, null when signed out (web routes only). */
    account: AccountRow | null;
    /** The session cookie's secret when it names a live session (web routes only). */
    sessionToken: string | null;
  }
}
