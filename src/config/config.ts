import { z } from "zod";
import { type Cidr, parseCidr } from "../limits/cidr.ts";

/** PGlite's page cache (`shared_buffers`) unless `PGLITE_SHARED_BUFFERS_MB` says otherwise. */
export const DEFAULT_PGLITE_SHARED_BUFFERS_MB = 32;

/** The environment variables the service reads, with their defaults. The README lists them. */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(8000),
  HOST: z.string().trim().min(1).regex(/^[0-9A-Za-z.:_-]+$/, "must be a host name or IP address")
    .default("0.0.0.0"),
  BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  DATABASE_PREPARED_STATEMENTS: z.enum(["true", "false"]).default("true")
    .transform((v) => v === "true"),
  // Streaming replicas of DATABASE_URL, comma-separated: reads that tolerate a moment of lag.
  DATABASE_REPLICA_URLS: z.string().optional().transform((v, ctx) => {
    const urls = (v ?? "").split(",").map((u) => u.trim()).filter(Boolean);
    for (const url of urls) {
      if (!/^postgres(ql)?:\/\//.test(url) || !URL.canParse(url)) {
        ctx.addIssue({ code: "custom", message: `"${url}" is not a postgres:// URL` });
      }
    }
    return urls;
  }),
  SEARCH_INDEX_MB: z.coerce.number().int().min(0).max(1_000_000).default(256),
  DATA_DIR: z.string().min(1).default("./data"),
  // PGlite's memory tops out at 2 GiB; its page cache has to leave room for the rest.
  PGLITE_SHARED_BUFFERS_MB: z.coerce.number().int().min(1).max(1024).default(
    DEFAULT_PGLITE_SHARED_BUFFERS_MB,
  ),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  SEED_DOCS: z.enum(["true", "false"]).default("true").transform((v) => v === "true"),
  ALLOWED_HOSTS: z.string().optional(),
  TRUST_PROXY: z.enum(["true", "false"]).default("false").transform((v) => v === "true"),
  MCP_LEAN_CALLS: z.enum(["true", "false"]).default("true").transform((v) => v === "true"),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  RATE_LIMIT_ANON_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  RATE_LIMIT_TOKEN_PER_MINUTE: z.coerce.number().int().min(1).default(1200),
  RATE_LIMIT_OAUTH_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  RATE_LIMIT_WEB_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  RATE_LIMIT_SIGNUPS_PER_HOUR: z.coerce.number().int().min(1).default(5),
  SHARED_EGRESS_RANGES: z.string().optional(),
  RATE_LIMIT_SHARED_EGRESS_PER_MINUTE: z.coerce.number().int().min(1).default(1200),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  IMPORT_TIMEOUT_MS: z.coerce.number().int().min(100).max(86_400_000).default(600_000),
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  ALLOWED_ORIGINS: z.string().optional(),
  OPERATOR_CONTACT: z.string().trim().min(3).max(200).optional(),
  LLM_BASE_URL: z.url({ protocol: /^https?$/ }).default("https://api.openai.com/v1"),
  LLM_API_KEY: z.string().optional(),
  LLM_MODEL: z.string().min(1).optional(),
  LLM_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(20_000),
  LLM_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(1),
  EMBEDDER: z.enum(["offline", "openai"]).default("offline"),
  EMBEDDING_BASE_URL: z.url({ protocol: /^https?$/ }).default("https://api.openai.com/v1"),
  EMBEDDING_API_KEY: z.string().optional(),
  EMBEDDING_MODEL: z.string().min(1).default("text-embedding-3-small"),
  EMBEDDING_DIMENSIONS: z.coerce.number().int().min(1).max(2000).optional(),
  EMBEDDING_BATCH_SIZE: z.coerce.number().int().min(1).max(2048).default(64),
  EMBEDDING_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  EMBEDDING_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
  // log2 of scrypt's N. 15 is the production cost; the tests run at 10 (hashes record their
  // own N, so a hash made at one cost verifies at another).
  PASSWORD_HASH_COST: z.coerce.number().int().min(10).max(20).default(15),
  SYNC_SECRET_KEY: z.string().refine(isKey32, "must be 32 random bytes in base64").optional(),
  SYNC_ALLOW_HOSTS: z.string().optional(),
  SYNC_SCHEDULER: z.enum(["true", "false"]).default("true").transform((v) => v === "true"),
  SYNC_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
  SYNC_POLL_SECONDS: z.coerce.number().min(0.05).max(3600).default(15),
  SPACE_FILES_MAX: z.coerce.number().int().min(0).max(1_000_000).default(200),
  SPACE_FILES_MB: z.coerce.number().int().min(0).max(1_000_000).default(100),
  EXPORT_MAX_MB: z.coerce.number().int().min(1).max(1_000_000).default(150),
  EXPORTS_ANON_PER_HOUR: z.coerce.number().int().min(1).default(10),
  EXPORTS_PER_HOUR: z.coerce.number().int().min(1).default(60),
  // Invitations by email: smtp://user:password@host:587 (STARTTLS when offered) or smtps://…:465.
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  SMTP_FROM: z.string().trim().min(3).max(200).optional(),
  INVITE_EMAILS_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(20),
});

/** The service's configuration, parsed once at start-up and passed down. */
export type Config = {
  port: number;
  /** The interface address the server binds (`0.0.0.0`: every IPv4 interface). */
  host: string;
  /** Public origin without a trailing slash, e.g. `https://wiki.example.com`. */
  baseUrl: string;
  databaseUrl: string | undefined;
  /** Most PostgreSQL connections this process opens at once. */
  databasePoolSize: number;
  /**
   * Whether PostgreSQL statements are named prepared statements (one round trip, a cached plan);
   * off behind a transaction pooler that does not keep them (PgBouncer without
   * `max_prepared_statements`).
   */
  databasePreparedStatements: boolean;
  /**
   * Streaming replicas of `databaseUrl`: searches, page reads and listings go to one of them
   * unless the caller wrote something its replica has not replayed yet (src/db/replicas.ts).
   */
  databaseReplicaUrls: string[];
  /** Memory for in-process lexical indexes, all wikis together (least recently searched go first). */
  searchIndexBytes: number;
  dataDir: string;
  /** PostgreSQL's `shared_buffers` of the embedded store, resident in this process. */
  pgliteSharedBuffersMb: number;
  logLevel: "debug" | "info" | "warn" | "error";
  seedDocs: boolean;
  /** Host names requests may carry (DNS-rebinding guard); null accepts any. */
  allowedHosts: string[] | null;
  /** Browser origins the private endpoint accepts besides its own and loopback ones. */
  allowedOrigins: string[];
  /** Take the client address from X-Forwarded-For (behind a proxy that sets it). */
  trustProxy: boolean;
  /**
   * Answer one 2025-era `tools/call` of a wiki endpoint's read-only tool without the SDK's
   * per-request server (src/kit/mcp/lean_call.ts); false sends every request through the SDK.
   */
  mcpLeanCalls: boolean;
  /** Request budgets per window: per credential, per IP without one, per IP on /token and /register. */
  rateLimits: {
    windowSeconds: number;
    anon: number;
    token: number;
    oauth: number;
    /** Web pages under `/w/`: per session when signed in, else per IP. */
    web: number;
    /** Sign-ups (accounts made, or tried with a taken email) per IP per hour. */
    signupsPerHour: number;
    /**
     * Address ranges many people's requests come from (a hosted assistant's egress): their
     * anonymous requests share one larger pool per range, `sharedEgress` a window.
     */
    sharedEgressRanges: Cidr[];
    sharedEgress: number;
  };
  /** How long a request may run before it is answered 503 (imports have their own bound). */
  timeouts: { requestMs: number; importMs: number };
  /** Audit-log rows older than this many days are pruned. */
  auditRetentionDays: number;
  /** Whom to ask for more than the budget (spec §8.3): an email or URL, or null when unset. */
  operatorContact: string | null;
  embedding: EmbeddingConfig;
  /** The language model that writes answers; null: answers are extractive. */
  llm: LlmConfig | null;
  /** scrypt parameters of new password hashes (N = 2^15 in production; tests use less). */
  passwordHash: { N: number; r: number; p: number };
  /** Spaces synced from Git: see docs/guide/Git sync.md. */
  sync: SyncConfig;
  /** A space's files and its exports (docs/security.md, "Limits"). */
  files: FilesConfig;
  /** Where invitation emails go out; null without `SMTP_URL` (invitations are links alone). */
  mail: MailConfig | null;
};

/** An SMTP server that sends invitation emails, and how many one account may send. */
export type MailConfig = {
  /** `smtp://` or `smtps://`, with the user and password in it when the server wants them. */
  smtpUrl: string;
  /** The sender every email carries, e.g. `Wiki <wiki@example.com>`. */
  from: string;
  /** Invitation emails one account may have sent in the last hour. */
  invitesPerHour: number;
};

/** What a space's files may take, and what one export may hold and how often. */
export type FilesConfig = {
  /** Most files one space holds. */
  maxFiles: number;
  /** Most bytes of files one space holds. */
  maxBytes: number;
  /** Most bytes (pages and files, before compression) one export holds. */
  exportBytes: number;
  /** Exports an hour from one address without a session, and from one signed-in account. */
  exportsPerHour: { anonymous: number; signedIn: number };
};

/** Git sync: the token key, the hosts allowed besides public https ones, the job loop. */
export type SyncConfig = {
  /** Base64 of 32 bytes (AES-256-GCM) for access tokens; null: tokens cannot be stored. */
  secretKey: string | null;
  /** `host:port` entries reachable over plain http and on private addresses (tests, self-hosting). */
  allowHosts: string[];
  /** Whether this process runs the sync job loop. */
  scheduler: boolean;
  leaseSeconds: number;
  pollSeconds: number;
};

/** An OpenAI-compatible chat completions endpoint. */
export type LlmConfig = {
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  timeoutMs: number;
  maxRetries: number;
};

/** Which embedder computes the vector leg of search, and how to reach it. */
export type EmbeddingConfig = {
  provider: "offline" | "openai";
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  /** Requested vector size; the model's own size when unset (openai), 256 for offline. */
  dimensions: number | undefined;
  batchSize: number;
  timeoutMs: number;
  maxRetries: number;
};

/** Thrown when the environment holds a value the service cannot run with. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Parses the environment; a wrong value throws a `ConfigError` that names the variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const { present, e } = parseEnvironment(env);
  // Deno Deploy has no writable disk for the embedded store: it needs PostgreSQL.
  if (present.DENO_DEPLOYMENT_ID && !e.DATABASE_URL) {
    throw new ConfigError(
      "Invalid configuration:\n  DATABASE_URL: required on Deno Deploy (the embedded store needs a disk); " +
        "set it to a PostgreSQL with the vector extension",
    );
  }
  const baseUrl = (e.BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  return {
    port: e.PORT,
    host: e.HOST,
    baseUrl,
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    databasePreparedStatements: e.DATABASE_PREPARED_STATEMENTS,
    databaseReplicaUrls: e.DATABASE_URL ? e.DATABASE_REPLICA_URLS : [],
    searchIndexBytes: e.SEARCH_INDEX_MB * 1024 * 1024,
    dataDir: e.DATA_DIR,
    pgliteSharedBuffersMb: e.PGLITE_SHARED_BUFFERS_MB,
    logLevel: e.LOG_LEVEL,
    seedDocs: e.SEED_DOCS,
    allowedHosts: e.ALLOWED_HOSTS?.trim() === "*" ? null : [
      new URL(baseUrl).hostname,
      "localhost",
      "127.0.0.1",
      "[::1]",
      ...list(e.ALLOWED_HOSTS),
    ],
    allowedOrigins: [new URL(baseUrl).origin, ...list(e.ALLOWED_ORIGINS)],
    trustProxy: e.TRUST_PROXY,
    mcpLeanCalls: e.MCP_LEAN_CALLS,
    rateLimits: rateLimitsOf(e),
    timeouts: { requestMs: e.REQUEST_TIMEOUT_MS, importMs: e.IMPORT_TIMEOUT_MS },
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    operatorContact: e.OPERATOR_CONTACT ?? null,
    passwordHash: { N: 2 ** e.PASSWORD_HASH_COST, r: 8, p: 1 },
    llm: e.LLM_MODEL
      ? {
        baseUrl: e.LLM_BASE_URL.replace(/\/+$/, ""),
        apiKey: e.LLM_API_KEY,
        model: e.LLM_MODEL,
        timeoutMs: e.LLM_TIMEOUT_MS,
        maxRetries: e.LLM_MAX_RETRIES,
      }
      : null,
    sync: {
      secretKey: e.SYNC_SECRET_KEY ?? null,
      allowHosts: list(e.SYNC_ALLOW_HOSTS).map((h) => h.toLowerCase()),
      scheduler: e.SYNC_SCHEDULER,
      leaseSeconds: e.SYNC_LEASE_SECONDS,
      pollSeconds: e.SYNC_POLL_SECONDS,
    },
    files: {
      maxFiles: e.SPACE_FILES_MAX,
      maxBytes: e.SPACE_FILES_MB * 1024 * 1024,
      exportBytes: e.EXPORT_MAX_MB * 1024 * 1024,
      exportsPerHour: { anonymous: e.EXPORTS_ANON_PER_HOUR, signedIn: e.EXPORTS_PER_HOUR },
    },
    mail: e.SMTP_URL
      ? {
        smtpUrl: e.SMTP_URL,
        from: e.SMTP_FROM ?? `Wiki <wiki@${new URL(baseUrl).hostname}>`,
        invitesPerHour: e.INVITE_EMAILS_PER_HOUR,
      }
      : null,
    embedding: embeddingOf(e),
  };
}

type Env = z.infer<typeof envSchema>;

/** The environment's set variables, checked against the schema (a `ConfigError` names each wrong one). */
function parseEnvironment(env: Record<string, string | undefined>) {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ""),
  );
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? "environment");
      return `${name}: ${issue.message} (got ${JSON.stringify(present[name] ?? null)})`;
    });
    throw new ConfigError(`Invalid configuration:\n  ${lines.join("\n  ")}`);
  }
  return { present, e: parsed.data };
}

/** The request budgets, with the shared egress ranges parsed. */
function rateLimitsOf(e: Env): Config["rateLimits"] {
  return {
    windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS,
    anon: e.RATE_LIMIT_ANON_PER_MINUTE,
    token: e.RATE_LIMIT_TOKEN_PER_MINUTE,
    oauth: e.RATE_LIMIT_OAUTH_PER_MINUTE,
    web: e.RATE_LIMIT_WEB_PER_MINUTE,
    signupsPerHour: e.RATE_LIMIT_SIGNUPS_PER_HOUR,
    sharedEgressRanges: list(e.SHARED_EGRESS_RANGES).map((text) => {
      const range = parseCidr(text);
      if (!range) throw new ConfigError(`SHARED_EGRESS_RANGES: "${text}" is not a CIDR range`);
      return range;
    }),
    sharedEgress: e.RATE_LIMIT_SHARED_EGRESS_PER_MINUTE,
  };
}

/** The embedder's settings. */
function embeddingOf(e: Env): Config["embedding"] {
  return {
    provider: e.EMBEDDER,
    baseUrl: e.EMBEDDING_BASE_URL.replace(/\/+$/, ""),
    apiKey: e.EMBEDDING_API_KEY,
    model: e.EMBEDDING_MODEL,
    dimensions: e.EMBEDDING_DIMENSIONS,
    batchSize: e.EMBEDDING_BATCH_SIZE,
    timeoutMs: e.EMBEDDING_TIMEOUT_MS,
    maxRetries: e.EMBEDDING_MAX_RETRIES,
  };
}

function isKey32(value: string): boolean {
  try {
    return atob(value).length === 32;
  } catch {
    return false;
  }
}

function list(value: string | undefined): string[] {
  return (value ?? "").split(",").map((s) => s.trim().replace(/\/+$/, "")).filter(Boolean);
}
