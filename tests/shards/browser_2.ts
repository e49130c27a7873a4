// One shard of the browser journeys: tests/shards/shard.ts says why and which files.
import { loadShard } from "./shard.ts";

await loadShard(import.meta.url);
