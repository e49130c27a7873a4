import { ConfigError } from "./src/config/config.ts";
import { MigrationError } from "./src/db/migrate.ts";
import { startServer } from "./src/server.ts";

try {
  await startServer(Deno.env.toObject());
} catch (error) {
  const expected = error instanceof ConfigError || error instanceof MigrationError;
  console.error(expected ? error.message : error);
  Deno.exit(1);
}
