import { Alert, CsrfField } from "../kit/web/form_kit.tsx";
import type { ImportReport } from "./import_uploads.ts";
import { pageHref, toolHref } from "../kit/web/space_urls.ts";
import { type SpaceView, WikiFrame } from "../kit/web/wiki_frame.tsx";

const RESULTS = {
  created: "Created",
  updated: "Updated",
  unchanged: "Unchanged",
  failed: "Failed",
  skipped: "Skipped",
};

/**
 * The import form (several `.md` files or a `.zip`) and, after a post, the report: one row per
 * file. `import.js` uploads with a progress bar and puts the report in place; without it the
 * form posts and the page comes back with the report.
 */
export function ImportPage(
  props: SpaceView & { report?: ImportReport; error?: string | undefined },
) {
  const { wiki } = props.space;
  const described = ["field-files-hint", props.error && "field-files-error"]
    .filter(Boolean).join(" ");
  return (
    <WikiFrame {...props} title="Import pages" scripts={["import.js"]}>
      <p>
        A file's name, without{" "}
        <code>.md</code>, becomes its page's path; in a zip, its folders too. Pages already in the
        wiki get a new revision when their text differs, and pages that are not in the upload stay
        as they are.
      </p>
      <Alert message={props.error} />
      <form
        method="post"
        action={toolHref(wiki.id, "import")}
        enctype="multipart/form-data"
        data-import=""
      >
        <CsrfField token={props.csrfToken} />
        <label for="field-files">Files</label>
        <p class="hint" id="field-files-hint">
          Markdown files (.md, .markdown) or .zip archives of them, up to 100 MB in all
        </p>
        <input
          id="field-files"
          type="file"
          name="files"
          multiple
          required
          accept=".md,.markdown,.mdx,.zip,text/markdown,application/zip"
          aria-describedby={described}
          aria-invalid={props.error ? "true" : undefined}
        />
        {props.error && <p class="error" id="field-files-error">{props.error}</p>}
        <button type="submit">Import</button>
      </form>
      <div id="import-progress" hidden>
        <label for="import-bar">Upload progress</label>
        <progress id="import-bar" max="100" value="0"></progress>
      </div>
      <p id="import-status" role="status"></p>
      <section id="import-report" aria-labelledby="import-report-heading" tabindex={-1}>
        {props.report && <Report wikiId={wiki.id} report={props.report} />}
      </section>
    </WikiFrame>
  );
}

function Report(props: { wikiId: string; report: ImportReport }) {
  const { summary, rows } = props.report;
  return (
    <>
      <h2 id="import-report-heading">Import report</h2>
      <p>
        {summary.added} created, {summary.updated} updated, {summary.unchanged} unchanged,{" "}
        {summary.failed.length} failed.
      </p>
      <div class="scroll" role="region" aria-label="Files imported" tabindex={0}>
        <table>
          <thead>
            <tr>
              <th scope="col">File</th>
              <th scope="col">Result</th>
              <th scope="col">Page or reason</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr class={row.status}>
                <td>{row.name}</td>
                <td>{RESULTS[row.status]}</td>
                <td>
                  {row.status === "failed" || row.status === "skipped" || !row.path
                    ? row.reason
                    : <a href={pageHref(props.wikiId, row.path)}>{row.path}</a>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
