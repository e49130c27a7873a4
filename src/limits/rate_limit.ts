import type { Context, MiddlewareHandler } from "hono";
import { requestCredential } from "../auth/credentials.ts";
import { isDatabaseUnavailable } from "../db/db.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { clientIp } from "../http/client_ip.ts";
import { problemResponse } from "../http/problem.ts";
import { countRequest, deleteOldCounters } from "./store.ts";

/** A named request budget. */
export type Budget = { name: "anon" | "token" | "oauth"; limit: number; windowSeconds: number };

/** Where a request stands against its budget. */
export type LimitState = { budget: Budget; remaining: number; resetSeconds: number };

declare module "hono" {
  interface ContextVariableMap {
    rateLimit: LimitState;
  }
}

/** Renders the 429 of a surface; the limiter adds `Retry-After` and the `RateLimit` headers. */
export type TooManyRenderer = (
  c: Context,
  state: LimitState,
  config: Pick<Deps["config"], "operatorContact">,
) => Response | Promise<Response>;

/** The REST and web 429: problem+json with the retry time and whom to ask for more. */
const tooManyProblem: TooManyRenderer = (c, state, config) =>
  problemResponse(
    c,
    new AppError("rate_limited", `Too many requests: try again in ${state.resetSeconds} s`, {
      retry_after: state.resetSeconds,
      ...(config.operatorContact ? { contact: config.operatorContact } : {}),
    }),
  );

/**
 * Limits requests per credential (an account, space or OAuth token: hosted assistants call from
 * shared addresses, so authenticated traffic is never keyed by IP) and per IP without one. The
 * counters live in the database, so every process shares them. Every limited response carries
 * `RateLimit-Policy` and `RateLimit` (draft-ietf-httpapi-ratelimit-headers); past the budget the
 * answer is 429 with `Retry-After` in whole seconds, its body rendered by `options.tooMany`
 * (problem+json by default). If the counter store fails, the request
 * goes through and the failure is logged; if the whole database is unreachable, the request
 * gets its 503 at once (it could not succeed anyway).
 */
export function rateLimit(
  deps: Deps,
  kind: "api" | "oauth",
  options: { tooMany?: TooManyRenderer } = {},
): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method === "OPTIONS") return await next();
    const { key, budget } = await keyOf(c, deps, kind);
    let state: LimitState;
    try {
      const counted = await countRequest(deps.db, key, budget.windowSeconds);
      const elapsed = (counted.now.getTime() - counted.window_started_at.getTime()) / 1000;
      state = {
        budget,
        remaining: Math.max(0, budget.limit - counted.count),
        resetSeconds: Math.max(1, Math.ceil(budget.windowSeconds - elapsed)),
      };
      if (Math.random() < 0.002) await deleteOldCounters(deps.db, 3600);
      if (counted.count > budget.limit) {
        const response = await (options.tooMany ?? tooManyProblem)(c, state, deps.config);
        response.headers.set("Retry-After", String(state.resetSeconds));
        setHeaders(response.headers, state);
        return response;
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
    setHeaders(c.res.headers, state);
  };
}

async function keyOf(
  c: Context,
  deps: Deps,
  kind: "api" | "oauth",
): Promise<{ key: string; budget: Budget }> {
  const { rateLimits } = deps.config;
  const windowSeconds = rateLimits.windowSeconds;
  const ip = clientIp(c, deps.config);
  if (kind === "oauth") {
    return {
      key: `oauth-ip:${ip}`,
      budget: { name: "oauth", limit: rateLimits.oauth, windowSeconds },
    };
  }
  if (c.req.header("authorization")) {
    const resolved = await requestCredential(c, deps);
    if (resolved.ok) {
      const credential = resolved.credential;
      const key = credential.kind === "oauth"
        ? `oauth:${credential.clientId}:${credential.accountId}`
        : `token:${credential.id}`;
      return { key, budget: { name: "token", limit: rateLimits.token, windowSeconds } };
    }
  }
  return { key: `ip:${ip}`, budget: { name: "anon", limit: rateLimits.anon, windowSeconds } };
}

function setHeaders(headers: Headers, state: LimitState): void {
  headers.set(
    "RateLimit-Policy",
    `"${state.budget.name}";q=${state.budget.limit};w=${state.budget.windowSeconds}`,
  );
  headers.set("RateLimit", `"${state.budget.name}";r=${state.remaining};t=${state.resetSeconds}`);
}
