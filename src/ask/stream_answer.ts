import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import type { Answer } from "./ask_schema.ts";
import { AppError } from "../errors.ts";

/**
 * Streams an answer as server-sent events: `status` while retrieving and writing, `delta`
 * with the answer's sentences as they are released (after verification), then `answer` with
 * the whole result, or `error` with a problem document.
 */
export function streamAnswer(c: Context, answer: () => Promise<Answer>): Response {
  return streamSSE(c, async (stream) => {
    await stream.writeSSE({ event: "status", data: JSON.stringify({ stage: "retrieving" }) });
    try {
      const result = await answer();
      await stream.writeSSE({
        event: "status",
        data: JSON.stringify({ stage: "answering", mode: result.mode }),
      });
      for (
        const piece of result.answer.match(/[^.!?]+[.!?]*(\s*\[\d+\])*\s*/g) ?? [result.answer]
      ) {
        await stream.writeSSE({ event: "delta", data: JSON.stringify({ text: piece }) });
      }
      await stream.writeSSE({ event: "answer", data: JSON.stringify(result) });
    } catch (error) {
      const problem = error instanceof AppError
        ? { code: error.code, status: error.status, detail: error.detail }
        : { code: "internal", status: 500, detail: "Internal error" };
      await stream.writeSSE({ event: "error", data: JSON.stringify(problem) });
    }
  });
}
