import { AppError } from "../errors.ts";

/** An opaque paging cursor for a keyset position. */
export function encodeCursor(position: string): string {
  const bytes = new TextEncoder().encode(JSON.stringify([position]));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(
    /=+$/,
    "",
  );
}

/** The position inside a cursor; `bad_request` when it was not made by `encodeCursor`. */
export function decodeCursor(cursor: string): string {
  try {
    const binary = atob(cursor.replace(/-/g, "+").replace(/_/g, "/"));
    const value = JSON.parse(
      new TextDecoder().decode(Uint8Array.from(binary, (ch) => ch.charCodeAt(0))),
    );
    if (Array.isArray(value) && typeof value[0] === "string") return value[0];
  } catch {
    // fall through to the error below
  }
  throw new AppError(
    "bad_request",
    `Cursor "${cursor.slice(0, 40)}" is not one this service gave out`,
  );
}
