import { PARTICLES, STOPWORDS } from "../text/terms.ts";

/** A word of letters and a particle after it, each standing whole. */
const PAIR = new RegExp(
  `(?<![\\p{L}\\p{N}_'’-])(\\p{L}{2,})\\s+(?=(${[...PARTICLES].join("|")})(?![\\p{L}\\p{N}_'’-]))`,
  "giu",
);

/**
 * The query with each phrasal verb also written as one word: "back up" adds "backup", "log in"
 * "login", "time out" "timeout", "roll back" "rollback". Documentation names a thing by the
 * noun ("Account Backup", `--login`) where a question asks how to do it. The joined form is one
 * more query word for the lexical leg: one the wiki does not hold ("accountin") has no document
 * frequency and weighs nothing. A stop word does not join ("we back up" adds only "backup").
 */
export function withJoinedPairs(query: string): string {
  const joined = [...query.matchAll(PAIR)]
    .filter((m) => !STOPWORDS.has(m[1]!.toLowerCase()))
    .map((m) => (m[1]! + m[2]!).toLowerCase());
  return joined.length === 0 ? query : `${query} ${joined.join(" ")}`;
}
