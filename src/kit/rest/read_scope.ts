import type { Context } from "hono";

/** How a family of routes finds its wiki from the `{id}` in the path (and who may read it). */
export type WikiResolver = (c: Context, id: string) => Promise<string>;

/**
 * Where a feature's read routes are registered: under `base` (`/public/wikis/{id}` or
 * `/spaces/{id}`), with the same definitions for public wikis and private spaces; only `resolve`
 * (and whether a bearer token is required) differs. The mount builds one per family.
 */
export type ReadScope = {
  base: string;
  tag: string;
  resolve: WikiResolver;
  secured: boolean;
  /** Names this family's operations: `public` gives `publicListPages`, … */
  operationPrefix: "public" | "space";
};

/** The per-family parts of a route definition: its operation id, security and auth statuses. */
export function scopeParts(scope: ReadScope) {
  return {
    op: (name: string) => `${scope.operationPrefix}${name}`,
    security: scope.secured ? [{ bearer: [] }] : undefined,
    auth: scope.secured ? [401, 403] : [],
  };
}
