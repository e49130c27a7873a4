import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { COMPOSED_HANDLER } from "hono/utils/constants";

/** The edges a route may declare for itself: its timeout, body limit and request budget. */
export type Edge = "timeout" | "body_limit" | "budget";

const declared = new WeakMap<MiddlewareHandler, { edge: Edge; value: number | null }>();

/**
 * Marks `middleware` as the route's own `edge` (with its `value`, e.g. a timeout's ms), so the
 * app-wide default of that edge (`requestTimeout`, `requestLimits`' body limit, a surface's
 * budget) steps aside for it or takes its value. The route keeps its middleware where it is
 * declared (`app.post("/x", timeout(…), handler)`); the default only asks Hono's router what
 * the matched route carries.
 */
export function declareEdge<M extends MiddlewareHandler>(
  edge: Edge,
  middleware: M,
  value: number | null = null,
): M {
  declared.set(middleware, { edge, value });
  return middleware;
}

/**
 * What the route matched for this request declares for `edge`: its value (or null when it has
 * none), or undefined when the route declares nothing.
 */
export function routeDeclares(c: Context, edge: Edge): number | null | undefined {
  for (const route of matchedRoutes(c)) {
    // A router with its own `onError`, once mounted, wraps each handler; the wrapper keeps the
    // original under `COMPOSED_HANDLER`.
    const handler = route.handler as MiddlewareHandler & { [COMPOSED_HANDLER]?: MiddlewareHandler };
    const found = declared.get(handler) ?? declared.get(handler[COMPOSED_HANDLER]!);
    if (found?.edge === edge) return found.value;
  }
  return undefined;
}
