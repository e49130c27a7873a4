import { AppError } from "../errors.ts";
import { decodeBase64url, encodeBase64url } from "./base64url.ts";

/** An opaque paging cursor for a keyset position. */
export function encodeCursor(position: string): string {
  return encodeBase64url(new TextEncoder().encode(JSON.stringify([position])));
}

/** The position inside a cursor; `bad_request` when it was not made by `encodeCursor`. */
export function decodeCursor(cursor: string): string {
  try {
    const value = JSON.parse(new TextDecoder().decode(decodeBase64url(cursor)));
    if (Array.isArray(value) && typeof value[0] === "string") return value[0];
  } catch {
    // fall through to the error below
  }
  throw new AppError(
    "bad_request",
    `Cursor "${cursor.slice(0, 40)}" is not one this service gave out`,
  );
}
