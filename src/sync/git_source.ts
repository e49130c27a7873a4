import { type GitSourceRow, type SyncJobRow } from "./store.ts";

export type { GitSourceRow, SyncJobRow };
