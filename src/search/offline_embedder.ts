import { type Embedder, normalize } from "../lib/embedder.ts";
import { EMBEDDER_STOPWORDS, lightStem, tokenize } from "../text/terms.ts";

/**
 * The built-in offline embedder: no weights, no network, no corpus statistics, so a vector
 * never changes as the wiki grows. Signed feature hashing of stemmed words (and, at 0.3 of
 * their weight, of adjacent word pairs) with sublinear term frequency, L2-normalised.
 * It is lexical at heart — it matches inflections and word pairs, not meanings — so search
 * weighs it lightly (`weak`); a real embedding model is one setting away (docs/retrieval.md).
 */
export function createOfflineEmbedder(dimensions = 1024): Embedder {
  return {
    id: `offline:hash-v1:${dimensions}`,
    dimensions,
    weak: true,
    embed: (texts) => Promise.resolve(texts.map((t) => embedText(t, dimensions))),
  };
}

const BIGRAM_WEIGHT = 0.3;

function embedText(text: string, dimensions: number): Float32Array {
  const words = new Map<string, number>();
  const pairs = new Map<string, number>();
  let previous = "";
  for (const token of tokenize(text)) {
    if (EMBEDDER_STOPWORDS.has(token)) {
      previous = ""; // a stopword also breaks a word pair
      continue;
    }
    const word = lightStem(token);
    words.set(word, (words.get(word) ?? 0) + 1);
    if (previous) {
      const pair = `${previous} ${word}`;
      pairs.set(pair, (pairs.get(pair) ?? 0) + 1);
    }
    previous = word;
  }
  const vector = new Float32Array(dimensions);
  addHashed(vector, words, 1, 1);
  addHashed(vector, pairs, 2, BIGRAM_WEIGHT);
  return normalize(vector);
}

/** Adds `weight` × the unit-length signed hash vector of the features (1 + ln count each). */
function addHashed(
  into: Float32Array,
  features: Map<string, number>,
  seed: number,
  weight: number,
) {
  if (features.size === 0) return;
  const part = new Float32Array(into.length);
  for (const [feature, count] of features) {
    const h = hash(feature, seed);
    part[h % into.length]! += (h & 0x80000000 ? -1 : 1) * (1 + Math.log(count));
  }
  normalize(part);
  for (let i = 0; i < into.length; i++) into[i]! += weight * part[i]!;
}

/** 32-bit FNV-1a with murmur3's finaliser: well spread, and the same on every platform. */
function hash(text: string, seed: number): number {
  let h = 0x811c9dc5 ^ seed;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
