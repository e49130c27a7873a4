/**
 * `decodeURIComponent`, or null for text that is not valid percent-encoding (a lone `%`,
 * `%E0%A4%A`, an encoded lone surrogate), which the built-in throws on as a `URIError`.
 *
 * @example
 * ```ts
 * decodeUriComponent("Caf%C3%A9"); // "Café"
 * decodeUriComponent("%"); // null
 * ```
 */
export function decodeUriComponent(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}
