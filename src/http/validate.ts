import type { Context } from "hono";
import type { z } from "zod";
import { AppError } from "../errors.ts";

/** Validates the query string against a schema; `bad_request` names the first bad field. */
export function parseQuery<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  const parsed = schema.safeParse(c.req.query());
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join(".") || "query";
    throw new AppError("bad_request", `Query parameter "${field}": ${issue.message}`, {
      errors: parsed.error.issues.map((i) => ({ field: i.path.join("."), message: i.message })),
    });
  }
  return parsed.data;
}
