import type { Context } from "hono";
import type { Config } from "../config/config.ts";

/**
 * The client's address: the connection's, or with `TRUST_PROXY` the first address of
 * `X-Forwarded-For` (which only a trusted proxy in front may set).
 */
export function clientIp(c: Context, config: Pick<Config, "trustProxy">): string {
  if (config.trustProxy) {
    const forwarded = c.req.header("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded.slice(0, 64);
  }
  const env = c.env as { remoteAddr?: { hostname?: string } } | undefined;
  return env?.remoteAddr?.hostname ?? "unknown";
}
