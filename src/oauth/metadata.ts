import type { Config } from "../config/config.ts";
import { mcpResource } from "./resource.ts";
import { SUPPORTED_SCOPES } from "./scopes.ts";

/**
 * Authorization-server metadata (RFC 8414). `issuer` is BASE_URL exactly, with no trailing
 * slash: clients compare it with the discovery URL and with `iss` byte for byte.
 */
export function authorizationServerMetadata(config: Pick<Config, "baseUrl">) {
  const base = config.baseUrl;
  return {
    issuer: base,
    authorization_endpoint: `${base}/authorize`,
    token_endpoint: `${base}/token`,
    registration_endpoint: `${base}/register`,
    revocation_endpoint: `${base}/revoke`,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none", "client_secret_post", "client_secret_basic"],
    revocation_endpoint_auth_methods_supported: [
      "none",
      "client_secret_post",
      "client_secret_basic",
    ],
    scopes_supported: [...SUPPORTED_SCOPES],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
  };
}

/** Protected-resource metadata (RFC 9728) of the private MCP endpoint. */
export function protectedResourceMetadata(config: Pick<Config, "baseUrl">) {
  return {
    resource: mcpResource(config.baseUrl),
    authorization_servers: [config.baseUrl],
    scopes_supported: [...SUPPORTED_SCOPES],
    bearer_methods_supported: ["header"],
    resource_name: "Knowledge wiki: your private spaces",
    resource_documentation: `${config.baseUrl}/w/docs`,
  };
}
