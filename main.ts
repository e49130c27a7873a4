import { ConfigError } from "./src/config/config.ts";
import { MigrationError } from "./src/db/migrate.ts";
import { PortInUseError, startServer } from "./src/server.ts";

try {
  await startServer(Deno.env.toObject());
} catch (error) {
  const expected = error instanceof ConfigError || error instanceof MigrationError ||
    error instanceof PortInUseError;
  console.error(expected ? error.message : error);
  Deno.exit(1);
}
