import { canWrite } from "../access/role.ts";
import type { SpaceView } from "../kit/web/wiki_frame.tsx";
import { WikiFrame } from "../kit/web/wiki_frame.tsx";
import { Alert, CsrfField } from "../kit/web/form_kit.tsx";
import type { AttachmentHead } from "./store.ts";
import { attachmentHref } from "./attachments.ts";
import { megabytes } from "../lib/megabytes.ts";

/**
 * A wiki's files: for members an upload form (a plain multipart form: works without script),
 * and every file with the markdown line that shows it in a page.
 */
export function FilesPage(
  props: SpaceView & {
    files: AttachmentHead[];
    usage: {
      files: number;
      bytes: number;
      versionBytes: number;
      maxFiles: number;
      maxBytes: number;
    };
    versions: Map<string, number>;
    uploaded?: string;
    status?: string;
    error?: string;
  },
) {
  const { usage } = props;
  const { wiki, role } = props.space;
  const uploaded = props.files.find((f) => f.name === props.uploaded);
  return (
    <WikiFrame {...props} title="Files" scripts={["copy.js"]}>
      <Alert message={props.error} />
      {uploaded && (
        <p class="notice" role="status">
          {props.status === "renamed"
            ? `A file of that name already held other bytes, so both are kept: this one is ${uploaded.name}.`
            : props.status === "replaced"
            ? `Replaced ${uploaded.name}; its earlier bytes are kept below.`
            : `Uploaded ${uploaded.name}.`} Put this line in a page to show it:{" "}
          <code id="uploaded-markdown">{snippetOf(wiki.id, uploaded)}</code>
        </p>
      )}
      {canWrite(role) && <UploadForm wikiId={wiki.id} csrfToken={props.csrfToken} />}
      <h2>All files</h2>
      <p class="hint" id="files-quota">
        {usage.files} of {usage.maxFiles} files, {megabytes(usage.bytes)} of{" "}
        {megabytes(usage.maxBytes)} used: the most this space holds.
        {usage.versionBytes > 0 &&
          ` Earlier versions of files take ${
            megabytes(usage.versionBytes)
          } of it; an admin may delete them for good through the API.`}
      </p>
      <FileTable wikiId={wiki.id} files={props.files} versions={props.versions} />
    </WikiFrame>
  );
}

/** The markdown line that shows a file in a page: an image, or a link. */
function snippetOf(wikiId: string, f: { name: string; content_type: string }): string {
  return f.content_type.startsWith("image/")
    ? `![${f.name}](${attachmentHref(wikiId, f.name)})`
    : `[${f.name}](${attachmentHref(wikiId, f.name)})`;
}

/** The upload form: a plain multipart form, which works without script. */
function UploadForm(props: { wikiId: string; csrfToken: string }) {
  return (
    <form method="post" action={`/w/${props.wikiId}/-/files`} enctype="multipart/form-data">
      <CsrfField token={props.csrfToken} />
      <label for="field-file">Upload a file</label>
      <p class="hint" id="field-file-hint">
        PNG, JPEG, GIF or WebP images and PDFs, up to 5 MB. A file of the same name is kept: the new
        one gets a numbered name, unless you choose to replace it (its earlier bytes are kept).
      </p>
      <input
        id="field-file"
        type="file"
        name="file"
        accept="image/png,image/jpeg,image/gif,image/webp,application/pdf"
        aria-describedby="field-file-hint"
        required
      />
      <label class="check">
        <input type="checkbox" name="replace" value="true" /> Replace a file of the same name
      </label>
      <button type="submit">Upload</button>
    </form>
  );
}

/** Every file with its size, its markdown line and links to its earlier versions. */
function FileTable(
  props: { wikiId: string; files: AttachmentHead[]; versions: Map<string, number> },
) {
  const snippet = (f: { name: string; content_type: string }) => snippetOf(props.wikiId, f);
  // The column of earlier versions shows only when a file has one.
  const versioned = props.files.some((f) => (props.versions.get(f.name) ?? 0) > 0);
  return (
    <>
      {props.files.length === 0 ? <p class="hint">No files yet.</p> : (
        <table>
          <thead>
            <tr>
              <th>File</th>
              <th>Size</th>
              <th>Markdown</th>
              {versioned && <th>Earlier versions</th>}
            </tr>
          </thead>
          <tbody>
            {props.files.map((f) => (
              <tr>
                <td>
                  <a href={attachmentHref(props.wikiId, f.name)}>{f.name}</a>
                </td>
                <td>{megabytes(f.size)}</td>
                <td>
                  <code>{snippet(f)}</code>
                </td>
                {versioned && (
                  <td>
                    {Array.from({ length: props.versions.get(f.name) ?? 0 }, (_, i) => (
                      <>
                        {i > 0 && " "}
                        <a href={`${attachmentHref(props.wikiId, f.name)}?version=${i + 1}`}>
                          {i + 1}
                        </a>
                      </>
                    ))}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
