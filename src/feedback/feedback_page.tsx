import { CsrfField } from "../kit/web/form_kit.tsx";
import { pageHref, toolHref } from "../kit/web/space_urls.ts";
import { type SpaceView, Time, WikiFrame } from "../kit/web/wiki_frame.tsx";
import type { ChangeRequestRow, ReportRow, WriterTokenRow } from "./store.ts";

/** What the feedback page shows of a space. */
export type FeedbackView = {
  reports: ReportRow[];
  proposals: ChangeRequestRow[];
  proposalsOn: boolean;
  writers: WriterTokenRow[];
  notice?: string | undefined;
};

/**
 * What assistants sent a space's owners: the edits they proposed (to review), the problems
 * they reported, per page, with the client that sent each, and the switches for proposals.
 * Every action is a plain form with its CSRF token: the page works without script.
 */
export function FeedbackPage(props: SpaceView & FeedbackView) {
  const { wiki } = props.space;
  return (
    <WikiFrame {...props} title={`Feedback on ${wiki.title}`}>
      {props.notice && <p class="notice" role="status">{props.notice}</p>}
      <p>
        What assistants proposed and reported. See also{" "}
        <a href={toolHref(wiki.id, "usage")}>usage</a>.
      </p>
      <Proposals wikiId={wiki.id} proposals={props.proposals} />
      <Reports wikiId={wiki.id} reports={props.reports} csrfToken={props.csrfToken} />
      <EditSwitches
        wikiId={wiki.id}
        proposalsOn={props.proposalsOn}
        writers={props.writers}
        csrfToken={props.csrfToken}
      />
    </WikiFrame>
  );
}

/** The edits assistants proposed: the open ones to review, then the decided ones. */
function Proposals({ wikiId, proposals }: { wikiId: string; proposals: ChangeRequestRow[] }) {
  const open = proposals.filter((p) => p.status === "open");
  const decided = proposals.filter((p) => p.status !== "open");
  return (
    <>
      <h2>Proposed edits ({open.length} open)</h2>
      {open.length === 0 ? <p>No proposal waits for review.</p> : (
        <ul>
          {open.map((p) => (
            <li>
              <a href={toolHref(wikiId, `proposals/${p.id}`)}>
                {p.base_revision === 0 ? "New page" : "Change to"} “{p.page_path}”
              </a>{" "}
              by {p.proposer_name || p.proposer_email || "an account"} with{" "}
              {p.client_name ?? "an unnamed client"}, <Time at={p.created_at} />
              {p.summary && <>: {p.summary}</>}
            </li>
          ))}
        </ul>
      )}
      {decided.length > 0 && (
        <details>
          <summary>Decided proposals ({decided.length})</summary>
          <ul>
            {decided.map((p) => (
              <li>
                <a href={toolHref(wikiId, `proposals/${p.id}`)}>“{p.page_path}”</a>: {p.status}
                {p.result_revision !== null && <>(revision {p.result_revision})</>}
                {p.decision_note && <>: {p.decision_note}</>}
              </li>
            ))}
          </ul>
        </details>
      )}
    </>
  );
}

/** The problems assistants reported, per page, each open one with its "Mark resolved". */
function Reports(
  { wikiId, reports, csrfToken }: { wikiId: string; reports: ReportRow[]; csrfToken: string },
) {
  const openReports = reports.filter((r) => !r.resolved_at);
  const byPage = new Map<string, ReportRow[]>();
  for (const r of reports) byPage.set(r.page_path, [...byPage.get(r.page_path) ?? [], r]);
  return (
    <>
      <h2>Reported problems ({openReports.length} open)</h2>
      {byPage.size === 0 ? <p>No assistant has reported a problem yet.</p> : (
        [...byPage].map(([path, rows]) => (
          <section aria-label={`Reports on ${path}`}>
            <h3>
              <a href={pageHref(wikiId, path)}>{path}</a>
            </h3>
            <ul class="reports">
              {rows.map((r) => (
                <li>
                  <strong>{r.kind}</strong>: {r.note}{" "}
                  <span class="hint">
                    ({r.client_name ?? "an unnamed client"}
                    {r.account_id ? "" : ", anonymous"}, <Time at={r.created_at} />)
                  </span>{" "}
                  {r.resolved_at ? <em>resolved</em> : (
                    <form
                      class="inline"
                      method="post"
                      action={toolHref(wikiId, `feedback/reports/${r.id}/resolve`)}
                    >
                      <CsrfField token={csrfToken} />
                      <button type="submit" aria-label={`Mark report ${r.id} resolved`}>
                        Mark resolved
                      </button>
                    </form>
                  )}
                </li>
              ))}
            </ul>
          </section>
        ))
      )}
    </>
  );
}

/** The switches for proposals, and per token whether it writes directly. */
function EditSwitches(
  props: { wikiId: string; proposalsOn: boolean; writers: WriterTokenRow[]; csrfToken: string },
) {
  return (
    <>
      <h2>Edits from assistants</h2>
      <form method="post" action={toolHref(props.wikiId, "feedback/settings")}>
        <CsrfField token={props.csrfToken} />
        <p>
          Assistants {props.proposalsOn ? "may" : "may not"}{" "}
          propose edits here. Every proposal waits for a person to accept it.
        </p>
        <input type="hidden" name="proposals" value={props.proposalsOn ? "off" : "on"} />
        <button type="submit">
          {props.proposalsOn ? "Turn proposals off" : "Turn proposals on"}
        </button>
      </form>
      <h3>Direct writes</h3>
      {props.writers.length === 0
        ? (
          <p>
            No space token of this space may propose edits. Create one with the scope “read and
            propose” on the <a href="/account/tokens">tokens page</a>.
          </p>
        )
        : (
          <ul>
            {props.writers.map((t) => (
              <li>
                Token “{t.name}” of {t.owner_name || t.owner_email}:{" "}
                {t.direct_writes ? "writes directly (still recorded)" : "proposals wait for review"}
                {" "}
                <form
                  class="inline"
                  method="post"
                  action={toolHref(props.wikiId, `feedback/tokens/${t.id}`)}
                >
                  <CsrfField token={props.csrfToken} />
                  <input type="hidden" name="direct" value={t.direct_writes ? "off" : "on"} />
                  <button type="submit">
                    {t.direct_writes ? "Require review" : "Let it write directly"}
                  </button>
                </form>
              </li>
            ))}
          </ul>
        )}
    </>
  );
}
