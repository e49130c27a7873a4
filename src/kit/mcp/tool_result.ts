import type { CallToolResult } from "@modelcontextprotocol/server";
import type { z } from "zod";
import type { Log } from "../../lib/log.ts";
import { isDatabaseUnavailable } from "../../db/db.ts";
import { AppError, RateLimitedError } from "../../errors.ts";

/** A successful tool result: the structured value and a text rendering for models and people. */
export function toolResult<T extends Record<string, unknown>>(
  structured: T,
  text: string,
): CallToolResult {
  return { structuredContent: structured, content: [{ type: "text", text }] };
}

/**
 * Runs a tool's work, turning an expected failure into an `isError` result the model can act
 * on (with close matches when there are some) and an unexpected one into a bare message.
 */
export async function runTool(
  log: Log,
  work: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError) {
      const suggestions = Array.isArray(error.extra.suggestions)
        ? error.extra.suggestions as string[]
        : [];
      return {
        isError: true,
        content: [{ type: "text", text: error.detail }],
        _meta: {
          code: error.code,
          ...(suggestions.length > 0 ? { suggestions } : {}),
          // A tool's 429: when to try again, in seconds (as `Retry-After` says on HTTP).
          ...(error instanceof RateLimitedError ? { retry_after: error.extra.retry_after } : {}),
        },
      };
    }
    if (isDatabaseUnavailable(error)) {
      log.error("tool failed: database unavailable", { error: String(error) });
      return {
        isError: true,
        content: [{
          type: "text",
          text: "The database is unavailable: try again in a few seconds",
        }],
      };
    }
    log.error("tool failed", {
      error: error instanceof Error ? error.stack ?? error.message : String(error),
    });
    return {
      isError: true,
      content: [{ type: "text", text: "Internal error: the tool could not run" }],
    };
  }
}

/**
 * `schema`, converted to JSON Schema once instead of on every call. The SDK converts a tool's
 * `outputSchema` on each `tools/call` of a fresh (per-request, stateless) server to shape the
 * result, which cost 1-3 ms a call, more than the rest of the protocol; a schema declared once,
 * at module level and wrapped here, is converted once per process (and per target and
 * direction) through zod's own `~standard` setter on a copy. Nothing mutates the JSON Schema handed out.
 *
 * @example
 * const outputSchema = convertedOnce(z.object({ n: z.number() }));
 */
export function convertedOnce<S extends z.ZodType>(declared: S): S {
  // A copy, so that a schema another module exports is left as it was.
  const schema = declared.clone() as S;
  const standard = schema["~standard"];
  const converted = new Map<string, Record<string, unknown>>();
  const once =
    (io: "input" | "output") => (options: StandardJsonOptions): Record<string, unknown> => {
      const key = `${io} ${options.target}`;
      let json = converted.get(key);
      if (!json) converted.set(key, json = standard.jsonSchema[io](options));
      return json;
    };
  schema["~standard"] = {
    ...standard,
    jsonSchema: { input: once("input"), output: once("output") },
  };
  return schema;
}

type StandardJsonOptions = Parameters<z.ZodType["~standard"]["jsonSchema"]["input"]>[0];
