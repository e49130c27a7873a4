/**
 * The public face of `src/feedback/` for its tables: the queries other features and its own
 * adapters call, exported from its store as they are (no wrapper renames them).
 *
 * @module
 */
export {
  resolveReportRow,
  selectAgentProposals,
  selectChangeRequest,
  selectChangeRequests,
  selectReports,
  selectWriterTokens,
  updateAgentProposals,
  updateDirectWrites,
} from "./store.ts";
