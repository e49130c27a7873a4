/**
 * `fn`, remembered for up to `max` distinct keys; past that the memory starts again (cleared,
 * not evicted one by one: the hot keys come back at once). Keys longer than `maxKeyLength` are
 * computed each time and never kept, so a URL, a hash or a line of minified code does not hold
 * its whole length in the memo: `max × maxKeyLength` bounds the keys' size.
 */
export function boundedMemo<T>(
  fn: (key: string) => T,
  max: number,
  maxKeyLength = 64,
): (key: string) => T {
  const kept = new Map<string, T>();
  return (key) => {
    if (key.length > maxKeyLength) return fn(key);
    let value = kept.get(key);
    if (value === undefined) {
      if (kept.size >= max) kept.clear();
      kept.set(key, value = fn(key));
    }
    return value;
  };
}
