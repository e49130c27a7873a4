import { AppError } from "../errors.ts";

/** A database row as the drivers return it. */
export type Row = Record<string, unknown>;

/**
 * The one small interface feature code talks to, over PGlite or postgres.js alike.
 * Queries are written as tagged templates: every `${value}` becomes a bound parameter.
 */
export interface Db {
  readonly kind: "pglite" | "postgres";
  /** Runs one parameterised statement and returns its rows. */
  <T = Row>(strings: TemplateStringsArray, ...values: unknown[]): Promise<T[]>;
  /** Runs one statement written with `$1…$n` placeholders. */
  query<T = Row>(text: string, params?: unknown[]): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(text: string): Promise<void>;
  /** Runs `fn` in a transaction; inside one already, runs it in that same transaction. */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  /** Closes the connection or the embedded database. */
  close(): Promise<void>;
  /**
   * Set on a handle that reads a copy of another database (a request's replica reads): that
   * database. Caches kept per database (the lexical indexes) are kept under it.
   */
  readonly home?: Db;
}

/** The parts a driver supplies; `makeDb` turns them into a `Db`. */
export type Driver = {
  kind: Db["kind"];
  query(text: string, params: unknown[]): Promise<Row[]>;
  exec(text: string): Promise<void>;
  transaction<T>(fn: (tx: Driver) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  inTransaction: boolean;
};

/** Joins a tagged template into `$n` placeholder text and its parameter list. */
export function toQuery(strings: TemplateStringsArray, values: unknown[]): [string, unknown[]] {
  let text = strings[0] ?? "";
  for (let i = 0; i < values.length; i++) text += `$${i + 1}${strings[i + 1] ?? ""}`;
  return [text, values.map(toParam)];
}

function toParam(value: unknown): unknown {
  // pgvector takes its text form, '[1,2,3]'; cast with ::vector in the SQL.
  if (value instanceof Float32Array) return `[${value.join(",")}]`;
  return value;
}

/** Wraps a driver in the tagged-template `Db` interface. */
export function makeDb(driver: Driver): Db {
  const db = (<T>(strings: TemplateStringsArray, ...values: unknown[]) => {
    const [text, params] = toQuery(strings, values);
    return driver.query(text, params).catch(refuseUnstorableText) as Promise<T[]>;
  }) as Db;
  Object.defineProperty(db, "kind", { value: driver.kind });
  db.query = <T>(text: string, params: unknown[] = []) =>
    driver.query(text, params.map(toParam)).catch(refuseUnstorableText) as Promise<T[]>;
  db.exec = (text) => driver.exec(text);
  db.transaction = (fn) =>
    driver.inTransaction ? fn(db) : driver.transaction((tx) => fn(makeDb(tx)));
  db.close = () => driver.close();
  return db;
}

/**
 * PostgreSQL text cannot hold U+0000 (error 22021): a value with one came from the caller (a
 * path, a query, a form field), so the request is refused as a bad request instead of failing
 * as an internal error. Nothing in the service makes such text itself.
 */
function refuseUnstorableText(error: unknown): never {
  if ((error as { code?: unknown } | null)?.code === "22021") {
    throw new AppError(
      "bad_request",
      "Text with a NUL character (U+0000) cannot be stored or searched",
    );
  }
  throw error;
}

/** Error codes of both drivers (and of PostgreSQL) that mean the database cannot be reached. */
const UNAVAILABLE = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE", // written after the server closed the socket
  "ECONNABORTED",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
  "08000",
  "08001",
  "08003",
  "08006",
]);

/** Whether an error means the database is down or unreachable (as opposed to a bad query). */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && UNAVAILABLE.has(code)) return true;
  return /PGlite is closed|connection (refused|terminated|ended)|Connection refused|socket has been ended/i
    .test(
      error.message,
    );
}
