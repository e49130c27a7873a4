import type { Context } from "hono";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { loadWebSpace, type WebAccess } from "./space_access.ts";
import { spaceNavOf } from "./space_nav.ts";
import type { SpaceView } from "./wiki_frame.tsx";

/**
 * The wiki of a request (its `:id`) with the visitor's role, checked for `need`, and what
 * every page of it is rendered with: on a GET, its page tree for the sidebar too.
 */
export async function openSpace(
  deps: Pick<Deps, "db" | "config">,
  c: Context,
  need: WebAccess,
  purpose?: string,
): Promise<SpaceView> {
  const space = await loadWebSpace(deps, c, c.req.param("id") ?? "", need, purpose);
  const nav = c.req.method === "GET" ? await spaceNavOf(c, space.wiki.id) : undefined;
  return { account: c.get("account"), csrfToken: c.get("csrfToken"), space, nav };
}

/** A form field as text; absent or a file is "". */
export function formText(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** A textarea's text with the CRLF line ends browsers submit turned into LF. */
export function formMarkdown(value: unknown): string {
  return formText(value).replace(/\r\n?/g, "\n");
}

/** A revision number from a form or query (`fallback` when absent); `bad_request` otherwise. */
export function revisionParam(value: unknown, fallback: number): number;
export function revisionParam(value: unknown): number | undefined;
export function revisionParam(value: unknown, fallback?: number): number | undefined {
  if (value === undefined || value === "") return fallback;
  if (typeof value !== "string" || !/^\d{1,9}$/.test(value)) {
    throw new AppError("bad_request", `A revision is a whole number, not "${String(value)}"`);
  }
  return Number(value);
}
