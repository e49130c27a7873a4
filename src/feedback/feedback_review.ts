import { type ChangeRequestRow, type ReportRow, type WriterTokenRow } from "./store.ts";

export type { ChangeRequestRow, ReportRow, WriterTokenRow };
