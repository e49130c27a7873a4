/**
 * JSON-RPC batches on MCP (issue 26.4). MCP 2025-03-26 allowed a batch; 2025-06-18 removed
 * batching (https://modelcontextprotocol.io/specification/2025-06-18/changelog), and the
 * revisions this server speaks (2025-11-25, 2026-07-28) have none. The SDK transport still
 * serves an array body whatever revision the request names, so one POST could carry a hundred
 * `ask` calls and hold the event loop for seconds. A batch is taken only from a client that
 * names no revision or 2025-03-26, and holds at most `MAX_BATCH_TOOL_CALLS` tool calls (one
 * `ask` takes ~40 ms of CPU, so a batch stays near 200 ms) and `MAX_BATCH_MESSAGES` messages.
 */
export const MAX_BATCH_TOOL_CALLS = 4;

/** The most messages of any kind one batch may hold. */
export const MAX_BATCH_MESSAGES = 32;

/** The only MCP revision with JSON-RPC batches. */
const BATCHING_REVISION = "2025-03-26";

/** The messages of a JSON-RPC batch body, or null when the body is not a batch. */
export function readBatch(body: string): unknown[] | null {
  if (!/^\s*\[/.test(body)) return null;
  try {
    const parsed = JSON.parse(body);
    return Array.isArray(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * Why a batch is refused, or null when it may be served: a revision without batches, too
 * many tool calls, too many messages.
 */
export function batchRefusal(messages: unknown[], revision: string | undefined): string | null {
  if (revision && revision !== BATCHING_REVISION) {
    return `JSON-RPC batches are not part of MCP ${revision} (removed in 2025-06-18): ` +
      "send one message per request";
  }
  if (messages.length > MAX_BATCH_MESSAGES) {
    return `A batch may hold at most ${MAX_BATCH_MESSAGES} messages; this one has ${messages.length}`;
  }
  const calls = messages.filter((m) => (m as { method?: unknown })?.method === "tools/call").length;
  if (calls > MAX_BATCH_TOOL_CALLS) {
    return `A batch may hold at most ${MAX_BATCH_TOOL_CALLS} tool calls; this one has ${calls}: ` +
      "send the others in further requests";
  }
  return null;
}
