import type { MiddlewareHandler } from "hono";

const SAFE_ID = /^[\w.:-]{1,128}$/;

/** Gives every request an id (the caller's `X-Request-Id` when it is sane) and echoes it. */
export function requestId(): MiddlewareHandler {
  return async (c, next) => {
    const given = c.req.header("x-request-id");
    const id = given && SAFE_ID.test(given) ? given : crypto.randomUUID();
    c.set("requestId", id);
    await next();
    c.res.headers.set("X-Request-Id", id);
  };
}

declare module "hono" {
  interface ContextVariableMap {
    requestId: string;
  }
}
