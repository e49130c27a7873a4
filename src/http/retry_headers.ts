/**
 * Where a caller stands against one budget, as the `RateLimit` headers say it: the budget's
 * name, its size and window, what is left and when the window resets (seconds).
 */
export type BudgetState = {
  name: string;
  limit: number;
  windowSeconds: number;
  remaining: number;
  resetSeconds: number;
};

/**
 * The one way a response states its budget (draft-ietf-httpapi-ratelimit-headers):
 * `RateLimit-Policy` and `RateLimit`; on a refusal (`remaining` 0, status 429) also
 * `Retry-After` in whole seconds, equal to the `t` of `RateLimit`, so the two never disagree.
 * Every 429 of the service, on every surface, is stamped here.
 */
export function setBudgetHeaders(headers: Headers, state: BudgetState, refused = false): void {
  const reset = Math.max(1, Math.ceil(state.resetSeconds));
  headers.set("RateLimit-Policy", `"${state.name}";q=${state.limit};w=${state.windowSeconds}`);
  headers.set("RateLimit", `"${state.name}";r=${refused ? 0 : state.remaining};t=${reset}`);
  if (refused) headers.set("Retry-After", String(reset));
}
