import { z } from "@hono/zod-openapi";
import { WIKI_ID } from "../../lib/urls.ts";

/** A wiki or space id in a path: lowercase letters, digits and inner hyphens (`WIKI_ID`). */
export const wikiIdParam = z.object({
  id: z.string().min(1).max(64).regex(WIKI_ID, { message: "Not a wiki id" }).openapi({
    param: { name: "id", in: "path" },
    example: "docs",
  }),
});

/** A page path in a URL: one path segment, `/` written as `%2F`. */
export const pageParams = wikiIdParam.extend({
  path: z.string().min(1).max(400).openapi({
    param: { name: "path", in: "path" },
    example: "Connecting an assistant",
    description: "The page path, URL-encoded (a `/` inside it as `%2F`)",
  }),
});

/** An RFC 9457 problem document, as every error of the API is. */
export const problemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  code: z.string().openapi({ description: "Stable error code, e.g. page_not_found" }),
  request_id: z.string(),
}).openapi("Problem");

/** The error responses a route may give, each as problem+json. */
export function problems(...statuses: number[]) {
  const descriptions: Record<number, string> = {
    400: "Invalid input",
    401: "No or invalid account token",
    403: "A space token, or no access",
    404: "No such wiki, space or page",
    409: "A conflict: the space is synced from Git (`space_synced`), or a revision conflict",
    412: "If-Match does not match the page's revision",
    413: "Body too large",
    415: "Wrong Content-Type",
    422: "The markdown cannot be parsed",
  };
  return Object.fromEntries(statuses.map((s) => [
    s,
    {
      description: descriptions[s] ?? "Error",
      content: { "application/problem+json": { schema: problemSchema } },
    },
  ]));
}

/** A JSON response of the given schema. */
export function json<S extends z.ZodType>(schema: S, description: string) {
  return { description, content: { "application/json": { schema } } };
}
