/**
 * A small local server that speaks the OpenAI embeddings protocol, for testing the `openai`
 * embedder without a network: deterministic vectors, and failures on request.
 */
export type FakeOpenAi = {
  url: string;
  /** Every request body received, in order. */
  requests: { model: string; input: string[]; dimensions?: number }[];
  /** Answer the next `n` requests with this HTTP status instead of vectors. */
  failNext(n: number, status: number): void;
  /** Answer with vectors of this size regardless of the request. */
  forceDimensions(n: number | null): void;
  /** Wait this long before answering. */
  delay(ms: number): void;
  /** What `/chat/completions` answers: the assistant message's content, from the request. */
  chat(reply: (request: { messages: { role: string; content: string }[] }) => string): void;
  /** Every chat request received. */
  chats: { model: string; messages: { role: string; content: string }[] }[];
  close(): Promise<void>;
};

/** Starts the fake on a free loopback port. */
export function startFakeOpenAi(defaultDimensions = 8): FakeOpenAi {
  const requests: FakeOpenAi["requests"] = [];
  let failures = 0;
  let failStatus = 500;
  let forced: number | null = null;
  let wait = 0;
  let chatReply: Parameters<FakeOpenAi["chat"]>[0] = () => "{}";
  const chats: FakeOpenAi["chats"] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    if (req.method === "POST" && url.pathname === "/v1/chat/completions") {
      const body = await req.json();
      chats.push({ model: body.model, messages: body.messages });
      if (wait) await new Promise((r) => setTimeout(r, wait));
      if (failures > 0) {
        failures--;
        return Response.json({ error: { message: "simulated failure" } }, { status: failStatus });
      }
      return Response.json({
        id: "chatcmpl-1",
        object: "chat.completion",
        created: 0,
        model: body.model,
        choices: [{
          index: 0,
          finish_reason: "stop",
          message: { role: "assistant", content: chatReply(body) },
        }],
      });
    }
    if (req.method !== "POST" || url.pathname !== "/v1/embeddings") {
      return new Response("no", { status: 404 });
    }
    const body = await req.json();
    const input: string[] = Array.isArray(body.input) ? body.input : [body.input];
    requests.push({ model: body.model, input, dimensions: body.dimensions });
    if (wait) await new Promise((r) => setTimeout(r, wait));
    if (failures > 0) {
      failures--;
      return Response.json({ error: { message: "simulated failure", type: "server_error" } }, {
        status: failStatus,
      });
    }
    const size = forced ?? body.dimensions ?? defaultDimensions;
    return Response.json({
      object: "list",
      model: body.model,
      data: input.map((text, index) => ({
        object: "embedding",
        index,
        embedding: vectorOf(text, size),
      })),
      usage: { prompt_tokens: input.length, total_tokens: input.length },
    });
  });
  const { port } = server.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    failNext(n, status) {
      failures = n;
      failStatus = status;
    },
    forceDimensions(n) {
      forced = n;
    },
    delay(ms) {
      wait = ms;
    },
    chat(reply) {
      chatReply = reply;
    },
    chats,
    close: () => server.shutdown(),
  };
}

/** Deterministic pseudo-vectors: texts sharing words get similar vectors. */
function vectorOf(text: string, size: number): number[] {
  const v = new Array<number>(size).fill(0);
  for (const word of text.toLowerCase().match(/\w+/g) ?? []) {
    let h = 2166136261;
    for (const ch of word) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
    v[Math.abs(h) % size]! += 1;
  }
  return v;
}
