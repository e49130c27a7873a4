import { z } from "zod";
import type { Db } from "../db/db.ts";
import { randomSecret } from "../lib/secrets.ts";
import { sha256Hex } from "../lib/sha256.ts";
import { type OAuthFailure, oauthFailure } from "./oauth_error.ts";
import { redirectUriProblem } from "./redirect_uris.ts";
import { SUPPORTED_SCOPES } from "./scopes.ts";
import { insertClient } from "./store.ts";

/** The registration metadata we accept (RFC 7591 §2); other members are ignored. */
const registrationSchema = z.object({
  redirect_uris: z.array(z.string()).min(1).max(10),
  token_endpoint_auth_method: z.enum(["none", "client_secret_post", "client_secret_basic"])
    .default("client_secret_basic"),
  grant_types: z.array(z.enum(["authorization_code", "refresh_token"])).min(1)
    .default(["authorization_code", "refresh_token"]),
  response_types: z.array(z.literal("code")).min(1).default(["code"]),
  client_name: z.string().trim().min(1).max(100).optional(),
  client_uri: z.url({ protocol: /^https?$/ }).max(2000).optional(),
  logo_uri: z.url({ protocol: /^https?$/ }).max(2000).optional(),
  scope: z.string().max(200).optional(),
  software_id: z.string().max(200).optional(),
  software_version: z.string().max(100).optional(),
  contacts: z.array(z.string().max(200)).max(10).optional(),
});

/** What `POST /register` answers with on success (RFC 7591 §3.2.1). */
export type Registration = Record<string, unknown> & { client_id: string };

/**
 * Registers a client (RFC 7591). All redirect URIs are checked together, and one bad URI
 * refuses the whole registration with a message naming it. Secret methods get a secret,
 * shown this once (stored as a hash) and never expiring (`client_secret_expires_at: 0`).
 */
export async function registerClient(
  db: Db,
  body: unknown,
): Promise<{ ok: true; registration: Registration } | OAuthFailure> {
  const uris = (body as { redirect_uris?: unknown } | null)?.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0) {
    return oauthFailure("invalid_redirect_uri", "redirect_uris must be a non-empty array");
  }
  for (const uri of uris) {
    const problem = typeof uri === "string" ? redirectUriProblem(uri) : "is not a string";
    if (problem) {
      return oauthFailure("invalid_redirect_uri", `Redirect URI ${JSON.stringify(uri)} ${problem}`);
    }
  }
  const parsed = registrationSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return oauthFailure(
      "invalid_client_metadata",
      `${issue.path.join(".") || "body"}: ${issue.message}`,
    );
  }
  const m = parsed.data;
  const unknownScope = (m.scope ?? "").split(" ").find((s) => s && !SUPPORTED_SCOPES.includes(s));
  if (unknownScope) {
    return oauthFailure("invalid_client_metadata", `Unknown scope "${unknownScope}"`);
  }
  const clientId = `wkc_${randomSecret(16)}`;
  const secret = m.token_endpoint_auth_method === "none" ? null : `wk_ocs_${randomSecret()}`;
  const { redirect_uris, token_endpoint_auth_method, ...rest } = m;
  const metadata = { ...rest, token_endpoint_auth_method };
  const client = await insertClient(db, {
    id: clientId,
    name: m.client_name ?? "Unnamed app",
    redirect_uris,
    auth_method: token_endpoint_auth_method,
    secret_hash: secret ? await sha256Hex(secret) : null,
    metadata,
  });
  return {
    ok: true,
    registration: {
      client_id: client.id,
      client_id_issued_at: Math.floor(client.created_at.getTime() / 1000),
      ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
      redirect_uris,
      ...metadata,
    },
  };
}
