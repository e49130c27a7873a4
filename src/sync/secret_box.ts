import { AppError } from "../errors.ts";

/**
 * Access tokens at rest: AES-256-GCM (WebCrypto) under `SYNC_SECRET_KEY`, a fresh 12-byte IV
 * per token, stored as base64 of IV followed by ciphertext and tag. The space id is the
 * additional data, so a sealed token copied to another space's row does not open there.
 */
export async function sealToken(
  keyBase64: string | null,
  wikiId: string,
  token: string,
): Promise<string> {
  const key = await importKey(keyBase64);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(wikiId) },
    key,
    new TextEncoder().encode(token),
  );
  const out = new Uint8Array(12 + sealed.byteLength);
  out.set(iv);
  out.set(new Uint8Array(sealed), 12);
  return btoa(String.fromCharCode(...out));
}

/** Opens a token sealed by `sealToken`; throws `sync_failed` when the key cannot open it. */
export async function openToken(
  keyBase64: string | null,
  wikiId: string,
  sealed: string,
): Promise<string> {
  const key = await importKey(keyBase64);
  const bytes = Uint8Array.from(atob(sealed), (ch) => ch.charCodeAt(0));
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: bytes.slice(0, 12), additionalData: new TextEncoder().encode(wikiId) },
      key,
      bytes.slice(12),
    );
    return new TextDecoder().decode(plain);
  } catch {
    throw new AppError(
      "sync_failed",
      "The stored access token cannot be opened with SYNC_SECRET_KEY (was the key changed?): " +
        "enter the token again",
    );
  }
}

async function importKey(keyBase64: string | null): Promise<CryptoKey> {
  if (!keyBase64) {
    throw new AppError(
      "bad_request",
      "Access tokens cannot be stored: the server has no SYNC_SECRET_KEY (32 random bytes in " +
        "base64, e.g. `openssl rand -base64 32`). Public repositories need no token",
    );
  }
  const raw = Uint8Array.from(atob(keyBase64), (ch) => ch.charCodeAt(0));
  return await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
}
