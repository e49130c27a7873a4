import type { AttachmentHead } from "./store.ts";

/**
 * The headers a stored file is served with, on the web and on REST alike: its stored type, an
 * ETag of its bytes, and no way to run as a page of this site, whatever it holds.
 */
export function fileHeaders(file: AttachmentHead, isPublic: boolean): Record<string, string> {
  return {
    "Content-Type": file.content_type,
    ETag: `"${file.sha256}"`,
    // Private files are kept by this browser only, and checked again on each use.
    "Cache-Control": isPublic ? "public, max-age=300" : "private, no-cache",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    "Content-Disposition": file.content_type === "application/pdf"
      ? `inline; filename="${file.name}"`
      : "inline",
  };
}
