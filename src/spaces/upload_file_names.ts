/**
 * The file names of a multipart body's parts named `field`, in order, read from the body's own
 * `Content-Disposition` headers. Deno's `formData()` cuts a quoted `filename` at its first
 * `=` (`filename="a=b.md"` gives `"a`), so the import form takes the names from here.
 *
 * Only the header block of each part is decoded; file contents are skipped over.
 *
 * @param body The raw request body.
 * @param contentType The request's `Content-Type`, with its `boundary`.
 * @param field The form field whose files to name.
 * @returns One name per file part of `field` (`""` for an empty file input), in body order.
 */
export function uploadFileNames(body: Uint8Array, contentType: string, field: string): string[] {
  const boundary = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!boundary) return [];
  // Each delimiter after the first starts a line: searching with the CRLF keeps the search
  // linear (the needle cannot overlap itself), whatever the files hold.
  const delimiter = new TextEncoder().encode(`\r\n--${boundary[1] ?? boundary[2]}`);
  const decoder = new TextDecoder();
  const names: string[] = [];
  let at = startsWith(body, delimiter.subarray(2)) ? -2 : indexOf(body, delimiter, 0);
  while (at !== -1) {
    const headersStart = at + delimiter.length + 2; // past the delimiter and its CRLF
    const headersEnd = indexOf(body, CRLF2, headersStart);
    if (headersEnd < 0) break;
    const headers = decoder.decode(body.subarray(headersStart, headersEnd));
    const disposition = /^content-disposition:(.*)$/im.exec(headers)?.[1] ?? "";
    const params = dispositionParams(disposition);
    if (params.get("name") === field && params.has("filename")) names.push(params.get("filename")!);
    at = indexOf(body, delimiter, headersEnd + 4);
  }
  return names;
}

const CRLF2 = new Uint8Array([13, 10, 13, 10]);

/** `name="x"; filename="a=b.md"` as a map; quoted values may hold `=`, `;` and `\"`. */
function dispositionParams(value: string): Map<string, string> {
  const params = new Map<string, string>();
  const param = /;\s*([^=;\s]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
  for (const m of value.matchAll(param)) {
    const raw = m[2] !== undefined ? m[2].replace(/\\(.)/g, "$1") : m[3]!.trim();
    params.set(m[1]!.toLowerCase(), raw);
  }
  return params;
}

function startsWith(body: Uint8Array, prefix: Uint8Array): boolean {
  return body.length >= prefix.length && prefix.every((byte, i) => body[i] === byte);
}

/** Where `needle` first occurs in `haystack` at or after `from`, or -1. */
function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0]!;
  for (let i = haystack.indexOf(first, from); i >= 0; i = haystack.indexOf(first, i + 1)) {
    if (i + needle.length > haystack.length) return -1;
    let j = 1;
    while (j < needle.length && haystack[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}
