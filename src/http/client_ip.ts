import type { Context } from "hono";
import type { Config } from "../config/config.ts";

/**
 * The client's address: the connection's, or with `TRUST_PROXY` the last address of
 * `X-Forwarded-For`: the one our proxy added. Addresses before it were sent by the client
 * (a proxy that appends keeps them) and would let a client choose its own rate-limit key.
 */
export function clientIp(c: Context, config: Pick<Config, "trustProxy">): string {
  if (config.trustProxy) {
    const forwarded = c.req.header("x-forwarded-for")?.split(",").at(-1)?.trim();
    if (forwarded) return forwarded.slice(0, 64);
  }
  const env = c.env as { remoteAddr?: { hostname?: string } } | undefined;
  return env?.remoteAddr?.hostname ?? "unknown";
}
