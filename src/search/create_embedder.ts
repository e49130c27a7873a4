import type { EmbeddingConfig } from "../config/config.ts";
import type { Embedder } from "./embedder.ts";
import { createOfflineEmbedder } from "./offline_embedder.ts";
import { createOpenAiEmbedder } from "./openai_embedder.ts";

/** The embedder the configuration names: `offline` (default) or `openai`. */
export function createEmbedder(config: EmbeddingConfig): Promise<Embedder> {
  if (config.provider === "openai") return createOpenAiEmbedder(config);
  return Promise.resolve(createOfflineEmbedder(config.dimensions ?? 1024));
}
