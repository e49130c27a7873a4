/**
 * The public face of `src/attachments/` for its tables: the queries other features and its own
 * adapters call, exported from its store as they are (no wrapper renames them).
 *
 * @module
 */
export {
  deleteAttachmentVersion,
  selectAttachment,
  selectAttachmentHeads,
  selectAttachmentVersion,
  selectVersionCounts,
} from "./store.ts";
