/** Log levels, least to most severe. */
export const LEVELS = ["debug", "info", "warn", "error"] as const;
export type Level = typeof LEVELS[number];

/** Structured logger: one JSON object a line on stderr. */
export type Log = Record<Level, (message: string, fields?: Record<string, unknown>) => void>;

/** A logger that writes entries at `level` and above. */
export function createLog(
  level: Level,
  write: (line: string) => void = (l) => console.error(l),
): Log {
  const min = LEVELS.indexOf(level);
  const entry = (at: Level) => (message: string, fields: Record<string, unknown> = {}) => {
    if (LEVELS.indexOf(at) < min) return;
    write(JSON.stringify({ time: new Date().toISOString(), level: at, message, ...fields }));
  };
  return { debug: entry("debug"), info: entry("info"), warn: entry("warn"), error: entry("error") };
}
