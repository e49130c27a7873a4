/**
 * Who is calling with a bearer credential (one model for MCP and REST): an account token, a
 * space token or an OAuth grant. The access policy decides from it; `auth/credentials.ts`
 * resolves it from the `Authorization` header.
 */
export type Credential =
  | { kind: "account_token"; id: string; accountId: string }
  | { kind: "space_token"; id: string; accountId: string; spaceId: string }
  | {
    /** An OAuth access token for `/mcp`: its grant (`id`), client and the spaces granted. */
    kind: "oauth";
    id: string;
    accountId: string;
    clientId: string;
    clientName: string;
    spaceIds: string[];
  };
