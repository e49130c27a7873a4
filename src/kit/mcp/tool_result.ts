import type { CallToolResult } from "@modelcontextprotocol/server";
import type { Log } from "../../lib/log.ts";
import { isDatabaseUnavailable } from "../../db/db.ts";
import { AppError } from "../../errors.ts";

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
        _meta: { code: error.code, ...(suggestions.length > 0 ? { suggestions } : {}) },
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
