import { ConfigError } from "./src/config/config.ts";
import { startServer } from "./src/server.ts";

try {
  await startServer(Deno.env.toObject());
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  Deno.exit(1);
}
