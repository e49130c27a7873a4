/** Turns passages and queries into vectors for the vector leg of search. */
export type Embedder = {
  /** Names the model and its settings, e.g. `offline:hash-v1:256`; stored with the index. */
  readonly id: string;
  readonly dimensions: number;
  /** True for the built-in offline embedder: fusion then leans on the lexical leg. */
  readonly weak: boolean;
  /** One unit-length vector per text, in order. Throws `EmbedderError` when it cannot. */
  embed(texts: string[]): Promise<Float32Array[]>;
};

/** The embedder could not produce vectors (endpoint down, bad answer); `message` says why. */
export class EmbedderError extends Error {
  override name = "EmbedderError";
}

/** Scales a vector to unit length in place (cosine distance then equals 1 - dot product). */
export function normalize(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const x of vector) sum += x * x;
  const norm = Math.sqrt(sum);
  if (norm > 0) { for (let i = 0; i < vector.length; i++) vector[i]! /= norm; }
  return vector;
}
