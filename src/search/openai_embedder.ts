import OpenAI from "openai";
import type { EmbeddingConfig } from "../config/config.ts";
import { type Embedder, EmbedderError, normalize } from "../lib/embedder.ts";

/**
 * An embedder over any OpenAI-compatible `/embeddings` endpoint (OpenAI, Azure, Ollama, vLLM,
 * TEI, LiteLLM). Texts go in batches; the SDK retries connection errors, 408/409/429 and 5xx
 * with exponential backoff, and times out each attempt.
 */
export async function createOpenAiEmbedder(config: EmbeddingConfig): Promise<Embedder> {
  const client = new OpenAI({
    baseURL: config.baseUrl,
    // Local servers (Ollama, TEI) take any key; the SDK insists on one.
    apiKey: config.apiKey ?? "none",
    timeout: config.timeoutMs,
    maxRetries: config.maxRetries,
  });
  const embedBatch = async (input: string[]): Promise<Float32Array[]> => {
    let response;
    try {
      response = await client.embeddings.create({
        model: config.model,
        input: input.map((t) => t.trim() || " "),
        encoding_format: "float",
        ...(config.dimensions ? { dimensions: config.dimensions } : {}),
      });
    } catch (error) {
      throw new EmbedderError(
        `Embedding endpoint ${config.baseUrl} failed for model "${config.model}": ${
          describe(error)
        }`,
      );
    }
    const rows = [...(response.data ?? [])].sort((a, b) => a.index - b.index);
    if (rows.length !== input.length) {
      throw new EmbedderError(
        `Embedding endpoint returned ${rows.length} vectors for ${input.length} texts`,
      );
    }
    return rows.map((row) => normalize(Float32Array.from(row.embedding as number[])));
  };
  // Ask once for the size when none is configured, so the index knows it up front.
  const dimensions = config.dimensions ?? (await embedBatch(["dimension probe"]))[0]!.length;
  return {
    id: `openai:${config.model}:${dimensions}`,
    dimensions,
    weak: false,
    async embed(texts) {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += config.batchSize) {
        const vectors = await embedBatch(texts.slice(i, i + config.batchSize));
        for (const v of vectors) {
          if (v.length !== dimensions) {
            throw new EmbedderError(
              `Embedding endpoint returned ${v.length} dimensions, expected ${dimensions}`,
            );
          }
          out.push(v);
        }
      }
      return out;
    },
  };
}

function describe(error: unknown): string {
  if (error instanceof OpenAI.APIError && error.status) {
    return `HTTP ${error.status} ${error.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}
