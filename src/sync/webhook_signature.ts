/**
 * Push webhooks are checked against the space's shared secret, in the form each host sends:
 * GitHub `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body>`, Gitea
 * `X-Gitea-Signature: <hex HMAC-SHA256>`, GitLab `X-Gitlab-Token: <the secret>`. Every
 * comparison takes the same time whatever the bytes, so a caller cannot find the expected
 * signature one byte at a time.
 */
export async function verifyWebhook(
  headers: Headers,
  body: Uint8Array,
  secret: string,
): Promise<{ ok: true; host: "github" | "gitea" | "gitlab" } | { ok: false; reason: string }> {
  const github = headers.get("x-hub-signature-256");
  const gitea = headers.get("x-gitea-signature");
  const gitlab = headers.get("x-gitlab-token");
  if (github !== null) {
    const expected = `sha256=${await hmacHex(secret, body)}`;
    return timingSafeEqual(github.trim().toLowerCase(), expected)
      ? { ok: true, host: "github" }
      : { ok: false, reason: "X-Hub-Signature-256 does not match" };
  }
  if (gitea !== null) {
    return timingSafeEqual(gitea.trim().toLowerCase(), await hmacHex(secret, body))
      ? { ok: true, host: "gitea" }
      : { ok: false, reason: "X-Gitea-Signature does not match" };
  }
  if (gitlab !== null) {
    return timingSafeEqual(gitlab, secret)
      ? { ok: true, host: "gitlab" }
      : { ok: false, reason: "X-Gitlab-Token does not match" };
  }
  return {
    ok: false,
    reason: "The request carries no X-Hub-Signature-256, X-Gitea-Signature or X-Gitlab-Token",
  };
}

/** Hex HMAC-SHA256 of `body` under `secret`. */
export async function hmacHex(secret: string, body: Uint8Array): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, body as BufferSource));
  return [...mac].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Compares two strings in time that depends on their lengths only. */
export function timingSafeEqual(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}
