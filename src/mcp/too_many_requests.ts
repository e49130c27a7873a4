import { personalBudgetHint, type TooManyRenderer } from "../limits/rate_limit.ts";

/**
 * The MCP endpoints' 429: a JSON-RPC error (clients parse the body as JSON-RPC, not
 * problem+json) echoing the request's id, with the retry time in `data.retry_after` (seconds,
 * as in `Retry-After`) and, when the operator set one, whom to ask for a larger budget.
 */
export const mcpTooManyRequests: TooManyRenderer = async (c, state, config) => {
  const contact = config.operatorContact;
  const message = `Too many requests: try again in ${state.resetSeconds} s` +
    personalBudgetHint(state, config.baseUrl) +
    (contact ? `; for a larger budget contact ${contact}` : "");
  return c.json({
    jsonrpc: "2.0",
    error: {
      code: -32000,
      message,
      data: {
        code: "rate_limited",
        retry_after: state.resetSeconds,
        limit: state.budget.limit,
        window_seconds: state.budget.windowSeconds,
        ...(contact ? { contact } : {}),
      },
    },
    id: await requestIdOf(c.req.raw),
  }, 429);
};

/** The JSON-RPC id of a single request, or null (a batch, a notification, unreadable JSON). */
async function requestIdOf(request: Request): Promise<string | number | null> {
  if (request.method !== "POST") return null;
  try {
    const body = await request.clone().json();
    const id = body?.id;
    return typeof id === "string" || typeof id === "number" ? id : null;
  } catch {
    return null;
  }
}
