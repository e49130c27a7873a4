import type { Context, MiddlewareHandler } from "hono";
import type { SpaceNav } from "../../markdown/page_tree.ts";

/**
 * Reads a wiki's page tree. The pages feature builds it (its pages in the order of the space's
 * navigation), which the kit does not import: the web mount gives the reader (`withSpaceNav`).
 */
export type SpaceNavReader = (wikiId: string) => Promise<SpaceNav>;

declare module "hono" {
  interface ContextVariableMap {
    /** The page tree reader of the wiki's pages, set where the web mount declares it. */
    spaceNavReader: SpaceNavReader;
  }
}

/**
 * Gives the wiki's pages under it their page tree reader; declared by the web mount on
 * `/w/:id/*`.
 *
 * @example
 * ```ts
 * app.use("/w/:id/*", withSpaceNav((wikiId) => loadSpaceNav(deps, wikiId)));
 * ```
 */
export function withSpaceNav(read: SpaceNavReader): MiddlewareHandler {
  return async function withSpaceNav(c, next) {
    c.set("spaceNavReader", read);
    await next();
  };
}

/** The page tree of a wiki, read with the reader the mount gave the request. */
export function spaceNavOf(c: Context, wikiId: string): Promise<SpaceNav> {
  const read = c.get("spaceNavReader");
  if (!read) throw new Error(`No page tree reader on ${c.req.path}: mount withSpaceNav`);
  return read(wikiId);
}
