import { canWrite } from "../access/role.ts";
import { TextArea } from "../kit/web/form_kit.tsx";
import type { RevisionRow } from "../pages/read_page.ts";
import { DiffView } from "./diff_view.tsx";
import type { LineDiff } from "./line_diff.ts";
import type { ChangeRow, HistoryRow } from "./store.ts";
import { actionHref, pageHref, toolHref } from "../kit/web/space_urls.ts";
import { authorOf, type SpaceView, Time, WikiFrame } from "../kit/web/wiki_frame.tsx";

const ACTIONS = { create: "created", update: "edited", rename: "renamed", delete: "deleted" };

/** Where a page's history is found: its path now (or its last path, once deleted). */
type PageRecord = { pageId: number; path: string; exists: boolean };

/** A page's revisions, newest first, with who made each, through what, and when. */
export function HistoryPage(
  props: SpaceView & { record: PageRecord; revisions: HistoryRow[] },
) {
  const { wiki, role } = props.space;
  const { record, revisions } = props;
  const diffHref = (from: number, to: number) =>
    `${actionHref(wiki.id, "diff", record.path)}?from=${from}&to=${to}`;
  return (
    <WikiFrame {...props} title={`History of ${record.path}`} path={record.path}>
      <p>
        {record.exists
          ? <a href={pageHref(wiki.id, record.path)}>Back to the page</a>
          : "This page has been deleted; its history is kept."}
      </p>
      {revisions.length > 1 && (
        <form method="get" action={actionHref(wiki.id, "diff", record.path)} class="compare">
          <div>
            <label for="field-from">From revision</label>
            <RevisionSelect name="from" revisions={revisions} selected={revisions[1]!.revision} />
          </div>
          <div>
            <label for="field-to">To revision</label>
            <RevisionSelect name="to" revisions={revisions} selected={revisions[0]!.revision} />
          </div>
          <button type="submit">Compare</button>
        </form>
      )}
      <div class="scroll" role="region" aria-label="Revisions" tabindex={0}>
        <table>
          <thead>
            <tr>
              <th scope="col">Revision</th>
              <th scope="col">Change</th>
              <th scope="col">By</th>
              <th scope="col">Through</th>
              <th scope="col">When</th>
            </tr>
          </thead>
          <tbody>
            {revisions.map((r) => (
              <tr>
                <td>
                  <a href={`${actionHref(wiki.id, "history", record.path)}?revision=${r.revision}`}>
                    {r.revision}
                  </a>
                </td>
                <td>
                  {r.revision > 1
                    ? <a href={diffHref(r.revision - 1, r.revision)}>{ACTIONS[r.action]}</a>
                    : ACTIONS[r.action]}
                  {r.action === "rename" && (
                    <>
                      {" to "}
                      <code>{r.path}</code>
                    </>
                  )}
                </td>
                <td>{authorOf(r, role !== null)}</td>
                <td>
                  {r.source}
                  {(r.proposer_name || r.proposed_client) &&
                    ` (proposed by ${r.proposer_name ?? "a member"} with ${
                      r.proposed_client ?? "an unnamed client"
                    })`}
                </td>
                <td>
                  <Time at={r.created_at} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </WikiFrame>
  );
}

function RevisionSelect(props: { name: string; revisions: HistoryRow[]; selected: number }) {
  return (
    <select id={`field-${props.name}`} name={props.name}>
      {props.revisions.map((r) => (
        <option value={r.revision} selected={r.revision === props.selected}>
          {r.revision} ({ACTIONS[r.action]}, {r.created_at.toISOString().slice(0, 10)})
        </option>
      ))}
    </select>
  );
}

/** The latest changes across the wiki. */
export function RecentChangesPage(props: SpaceView & { changes: ChangeRow[] }) {
  const { wiki, role } = props.space;
  return (
    <WikiFrame {...props} title="Recent changes">
      {props.changes.length === 0
        ? <p>Nothing has been written in this wiki yet.</p>
        : (
          <ol class="changes">
            {props.changes.map((r) => {
              const path = r.current_path ?? r.path;
              return (
                <li>
                  <a
                    href={r.current_path
                      ? pageHref(wiki.id, path)
                      : actionHref(wiki.id, "history", path)}
                  >
                    {r.title}
                  </a>{" "}
                  {r.revision > 1
                    ? (
                      <a
                        href={`${actionHref(wiki.id, "diff", path)}?from=${
                          r.revision - 1
                        }&to=${r.revision}`}
                      >
                        {ACTIONS[r.action]}
                      </a>
                    )
                    : ACTIONS[r.action]} by {authorOf(r, role !== null)} through {r.source},{" "}
                  <Time at={r.created_at} />
                </li>
              );
            })}
          </ol>
        )}
    </WikiFrame>
  );
}

/** The changes between two revisions of a page, line by line. */
export function DiffPage(
  props: SpaceView & {
    record: PageRecord;
    from: number;
    to: number;
    diff: LineDiff;
  },
) {
  const { wiki } = props.space;
  const { record } = props;
  return (
    <WikiFrame {...props} title={`Changes to ${record.path}`} path={record.path}>
      <p>
        From revision {props.from || "(none)"} to revision {props.to}.{" "}
        <a href={actionHref(wiki.id, "history", record.path)}>All revisions</a>
        {record.exists && (
          <>
            {" · "}
            <a href={pageHref(wiki.id, record.path)}>The page</a>
          </>
        )}
      </p>
      <DiffView diff={props.diff} label={`Changes from revision ${props.from} to ${props.to}`} />
    </WikiFrame>
  );
}

/** One past revision of a page, rendered, with a way to bring its text back. */
export function RevisionPage(
  props: SpaceView & { record: PageRecord; revision: RevisionRow; html: string; latest: number },
) {
  const { wiki, role } = props.space;
  const { record, revision } = props;
  const restore = record.exists
    ? `${actionHref(wiki.id, "edit", record.path)}?revision=${revision.revision}`
    : toolHref(wiki.id, "new", { path: record.path, revision: revision.revision });
  return (
    <WikiFrame
      {...props}
      title={`${revision.title} (revision ${revision.revision})`}
      path={record.path}
    >
      <p class="alert" role="status">
        Revision {revision.revision} of {props.latest}, {ACTIONS[revision.action]}{" "}
        <Time at={revision.created_at} />.{" "}
        <a href={actionHref(wiki.id, "history", record.path)}>All revisions</a>
        {canWrite(role) && (
          <>
            {" · "}
            <a href={restore}>
              {record.exists ? "Edit from this revision" : "Create the page again from it"}
            </a>
          </>
        )}
      </p>
      <article class="prose" dangerouslySetInnerHTML={{ __html: props.html }} />
      <details>
        <summary>Markdown of this revision</summary>
        <TextArea
          name="revision-markdown"
          label={`Markdown of revision ${revision.revision}`}
          value={revision.markdown}
          rows={12}
          class="code"
          readonly
        />
      </details>
    </WikiFrame>
  );
}
