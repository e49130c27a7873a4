/**
 * A least-recently-used cache bounded by the total size of what it holds (`size` of each
 * value, e.g. a string's length), not by its count: a few large values or many small ones fit
 * the same budget. A value over a quarter of the budget is never kept, so one cannot empty it.
 *
 * @example
 * ```ts
 * const html = sizedLru<string>(32 * 1024 * 1024, (s) => s.length);
 * html.set("key", "<p>…</p>");
 * html.get("key"); // "<p>…</p>", now the most recently used
 * ```
 */
export function sizedLru<T>(budget: number, size: (value: T) => number) {
  // A Map iterates in insertion order: re-inserting on each hit keeps the oldest first.
  const kept = new Map<string, { value: T; size: number }>();
  let total = 0;
  return {
    get(key: string): T | undefined {
      const entry = kept.get(key);
      if (!entry) return undefined;
      kept.delete(key);
      kept.set(key, entry);
      return entry.value;
    },
    set(key: string, value: T): void {
      const old = kept.get(key);
      if (old) {
        kept.delete(key);
        total -= old.size;
      }
      const entry = { value, size: size(value) + key.length };
      if (entry.size > budget / 4) return;
      kept.set(key, entry);
      total += entry.size;
      for (const [oldest, { size }] of kept) {
        if (total <= budget) break;
        kept.delete(oldest);
        total -= size;
      }
    },
    /** What is held, in the units of `size`. */
    get total(): number {
      return total;
    },
  };
}
