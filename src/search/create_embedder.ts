import type { EmbeddingConfig } from "../config/config.ts";
import type { Embedder } from "../lib/embedder.ts";
import { createOfflineEmbedder } from "./offline_embedder.ts";

/**
 * The embedder the configuration names: `offline` (default) or `openai`. The OpenAI client
 * library is loaded only when it is named (docs/performance.md, "PGlite's memory").
 */
export async function createEmbedder(config: EmbeddingConfig): Promise<Embedder> {
  if (config.provider === "openai") {
    const { createOpenAiEmbedder } = await import("./openai_embedder.ts");
    return createOpenAiEmbedder(config);
  }
  return createOfflineEmbedder(config.dimensions ?? 1024);
}
