import type { Context, MiddlewareHandler } from "hono";
import { requestCredential } from "../auth/credentials.ts";
import { isDatabaseUnavailable } from "../db/db.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { clientIp } from "../http/client_ip.ts";
import { problemResponse } from "../http/problem.ts";
import { rangeOf } from "./cidr.ts";
import { declareEdge, routeDeclares } from "../http/route_edges.ts";
import { requestCounts } from "./request_counts.ts";
import { setBudgetHeaders } from "../http/retry_headers.ts";
import { countRequest, deleteOldCounters } from "./store.ts";

/** A named request budget. */
export type Budget = {
  name: "anon" | "token" | "oauth" | "shared" | "web";
  limit: number;
  windowSeconds: number;
};

/**
 * Which budget a route spends: `api` (REST, MCP, `llms.txt`: per account or space token, else
 * per IP), `oauth` (per IP, stricter) or `web` (server-rendered pages: per session when signed
 * in, else per IP, apart from the API's counters so browsing never spends a script's budget).
 */
export type BudgetKind = "api" | "oauth" | "web";

/** Where a request stands against its budget, and the counter (`key`) it was counted on. */
export type LimitState = { key: string; budget: Budget; remaining: number; resetSeconds: number };

declare module "hono" {
  interface ContextVariableMap {
    rateLimit: LimitState;
  }
}

/**
 * The live session a web request belongs to (its id, never its secret), or null: given by the
 * mount, which knows the web's sessions, so the web budget counts per session when signed in.
 */
export type SessionOf = (c: Context) => Promise<string | null>;

/** Renders the 429 of a surface; the limiter adds `Retry-After` and the `RateLimit` headers. */
export type TooManyRenderer = (
  c: Context,
  state: LimitState,
  config: Pick<Deps["config"], "operatorContact" | "baseUrl">,
) => Response | Promise<Response>;

/** The REST and web 429: problem+json with the retry time and whom to ask for more. */
const tooManyProblem: TooManyRenderer = (c, state, config) =>
  problemResponse(
    c,
    new AppError(
      "rate_limited",
      `Too many requests: try again in ${state.resetSeconds} s${
        personalBudgetHint(state, config.baseUrl)
      }`,
      {
        retry_after: state.resetSeconds,
        ...(config.operatorContact ? { contact: config.operatorContact } : {}),
      },
    ),
  );

/**
 * Declares the request budget of a route or router, where it is defined, e.g.
 * `app.use("*", rateLimit(deps, "api"))` in a router, or on one route.
 *
 * Limits requests per account (all its account tokens, space tokens and OAuth grants share one
 * budget; hosted assistants call from shared addresses, so authenticated traffic is never keyed
 * by IP), and per IP without a credential. The counters live in the database, so every
 * process shares them. Every limited response carries
 * `RateLimit-Policy` and `RateLimit` (draft-ietf-httpapi-ratelimit-headers); past the budget the
 * answer is 429 with `Retry-After` in whole seconds, its body rendered by `options.tooMany`
 * (problem+json by default). If the counter store fails, the request
 * goes through and the failure is logged; if the whole database is unreachable, the request
 * gets its 503 at once (it could not succeed anyway).
 */
export function rateLimit(
  deps: Deps,
  kind: BudgetKind,
  options: { tooMany?: TooManyRenderer; sessionOf?: SessionOf } = {},
): MiddlewareHandler {
  const counts = requestCounts();
  return declareEdge("budget", async function rateLimit(c, next) {
    if (c.req.method === "OPTIONS") return await next();
    const { key, budget, also } = await keyOf(c, deps, kind, options.sessionOf);
    let state: LimitState;
    try {
      // Behind a shared egress range, one address may not spend more than its share of the
      // pool; it is checked first, so an address over its share does not drain the pool.
      if (also) {
        const mine = await countRequest(deps.db, also.key, budget.windowSeconds);
        if (mine.count > also.limit) {
          const elapsed = (mine.now.getTime() - mine.window_started_at.getTime()) / 1000;
          const resetSeconds = Math.max(1, Math.ceil(budget.windowSeconds - elapsed));
          return await tooMany(
            c,
            { key, budget, remaining: 0, resetSeconds },
            deps.config,
            options.tooMany,
          );
        }
      }
      const counted = await counts.count(deps.db, key, budget.windowSeconds, budget.limit);
      const elapsed = (counted.now.getTime() - counted.window_started_at.getTime()) / 1000;
      state = {
        key,
        budget,
        remaining: Math.max(0, budget.limit - counted.count),
        resetSeconds: Math.max(1, Math.ceil(budget.windowSeconds - elapsed)),
      };
      if (Math.random() < 0.002) await deleteOldCounters(deps.db, 3600);
      if (counted.count > budget.limit) {
        return await tooMany(c, state, deps.config, options.tooMany);
      }
    } catch (error) {
      // With the database gone the request cannot succeed anyway: answer 503 now instead of
      // waiting out the connection timeout again in the route.
      if (isDatabaseUnavailable(error)) throw error;
      deps.log.warn("rate limit store failed: request let through", { error: String(error) });
      return await next();
    }
    c.set("rateLimit", state);
    await next();
    // A 429 from further in (a report budget, a batch) states its own budget: left as it is,
    // so its `RateLimit` agrees with its `Retry-After`.
    if (c.res.status === 429) return;
    // A batch may have been charged more since (chargeBatch).
    setHeaders(c.res.headers, c.get("rateLimit") ?? state);
  });
}

/**
 * The web pages' budget (`RATE_LIMIT_WEB_PER_MINUTE`), per session when signed in, else per IP,
 * for a whole surface (`app.use("/w/*", webBudget(deps, sessionOf))`). A route under it that declares a
 * budget of its own (`/w/<id>/llms.txt` spends the API's) is left to that one.
 */
export function webBudget(deps: Deps, sessionOf: SessionOf): MiddlewareHandler {
  const limit = rateLimit(deps, "web", { sessionOf });
  return async function webBudget(c, next) {
    if (routeDeclares(c, "budget") !== undefined) return await next();
    return await limit(c, next);
  };
}

async function keyOf(
  c: Context,
  deps: Deps,
  kind: BudgetKind,
  sessionOf: SessionOf | undefined,
): Promise<{ key: string; budget: Budget; also?: { key: string; limit: number } }> {
  const { rateLimits } = deps.config;
  const windowSeconds = rateLimits.windowSeconds;
  const ip = clientIp(c, deps.config);
  if (kind === "web") {
    const budget: Budget = { name: "web", limit: rateLimits.web, windowSeconds };
    // Only a live session gets its own counter: a made-up cookie is counted by its address.
    const session = sessionOf ? await sessionOf(c) : null;
    return { key: session ? `web-session:${session}` : `web-ip:${ip}`, budget };
  }
  if (kind === "oauth") {
    return {
      key: `oauth-ip:${ip}`,
      budget: { name: "oauth", limit: rateLimits.oauth, windowSeconds },
    };
  }
  if (c.req.header("authorization")) {
    const resolved = await requestCredential(c, deps);
    if (resolved.ok) {
      // One budget per account across all its credentials, account tokens, space tokens and
      // OAuth grants alike: a new token must not buy a fresh budget.
      return {
        key: `account:${resolved.credential.accountId}`,
        budget: { name: "token", limit: rateLimits.token, windowSeconds },
      };
    }
  }
  const shared = rangeOf(rateLimits.sharedEgressRanges, ip);
  if (shared) {
    // Many people behind one hosted assistant's addresses: a larger pool for the range, of
    // which one address takes at most half (docs/reliability.md, "Shared egress").
    return {
      key: `shared:${shared.text}`,
      budget: { name: "shared", limit: rateLimits.sharedEgress, windowSeconds },
      also: { key: `shared-ip:${ip}`, limit: Math.ceil(rateLimits.sharedEgress / 2) },
    };
  }
  return { key: `ip:${ip}`, budget: { name: "anon", limit: rateLimits.anon, windowSeconds } };
}

async function tooMany(
  c: Context,
  state: LimitState,
  config: Deps["config"],
  render: TooManyRenderer = tooManyProblem,
): Promise<Response> {
  const response = await render(c, state, config);
  setBudgetHeaders(response.headers, budgetState(state), true);
  return response;
}

/**
 * For a request counted by address (alone or in a shared pool), how to get a budget of one's
 * own: a token or OAuth sign-in is counted per account, never per address.
 */
export function personalBudgetHint(state: LimitState, baseUrl: string): string {
  if (state.budget.name !== "anon" && state.budget.name !== "shared") return "";
  return `. For a budget of your own, send a token (Authorization: Bearer <token>, made at ${baseUrl}/account/tokens) or sign in with OAuth: signed-in calls are counted per account, not per address`;
}

/**
 * Counts every call of a JSON-RPC batch against the request's budget: the rate limiter counted
 * the POST once, so a batch of `calls` calls is charged `calls - 1` more. (Protocol 2025-06-18
 * removed batches, but clients of 2025-03-26 may send them and the SDK transport serves them.)
 * Returns the 429 (rendered by `render`, problem+json by default) when the batch goes over the
 * budget, else null. The caller has read the body once (`readBatch` gives its calls).
 */
export async function chargeBatch(
  c: Context,
  deps: Deps,
  calls: number,
  render?: TooManyRenderer,
): Promise<Response | null> {
  const state = c.get("rateLimit");
  if (!state || calls <= 1) return null;
  let counted;
  try {
    counted = await countRequest(deps.db, state.key, state.budget.windowSeconds, calls - 1);
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error;
    deps.log.warn("rate limit store failed: batch let through", { error: String(error) });
    return null;
  }
  const next = { ...state, remaining: Math.max(0, state.budget.limit - counted.count) };
  c.set("rateLimit", next);
  return counted.count > state.budget.limit ? await tooMany(c, next, deps.config, render) : null;
}

function setHeaders(headers: Headers, state: LimitState): void {
  setBudgetHeaders(headers, budgetState(state));
}

function budgetState(state: LimitState) {
  return { ...state.budget, remaining: state.remaining, resetSeconds: state.resetSeconds };
}
