import { z } from "zod";

/** The environment variables the service reads, with their defaults. The README lists them. */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(8000),
  BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  DATA_DIR: z.string().min(1).default("./data"),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  SEED_DOCS: z.enum(["true", "false"]).default("true").transform((v) => v === "true"),
});

/** The service's configuration, parsed once at start-up and passed down. */
export type Config = {
  port: number;
  /** Public origin without a trailing slash, e.g. `https://wiki.example.com`. */
  baseUrl: string;
  databaseUrl: string | undefined;
  dataDir: string;
  logLevel: "debug" | "info" | "warn" | "error";
  seedDocs: boolean;
};

/** Thrown when the environment holds a value the service cannot run with. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Parses the environment; a wrong value throws a `ConfigError` that names the variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
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
  const e = parsed.data;
  const baseUrl = (e.BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  return {
    port: e.PORT,
    baseUrl,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.DATA_DIR,
    logLevel: e.LOG_LEVEL,
    seedDocs: e.SEED_DOCS,
  };
}
