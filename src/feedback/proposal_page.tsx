import { Alert, CsrfField } from "../kit/web/form_kit.tsx";
import { DiffView } from "../spaces/diff_view.tsx";
import type { LineDiff } from "../spaces/line_diff.ts";
import { pageHref, toolHref } from "../kit/web/space_urls.ts";
import { type SpaceView, Time, WikiFrame } from "../kit/web/wiki_frame.tsx";
import { TextArea } from "../kit/web/form_kit.tsx";
import type { ChangeRequestRow } from "./store.ts";

/** A proposal as the reviewer sees it. */
export type ProposalView = {
  proposal: ChangeRequestRow;
  /** The page's revision now (0: no such page) and how the proposal differs from it. */
  current: { revision: number; diff: LineDiff };
  /** When the page moved on since the proposal's base: how it differs from that base. */
  fromBase: LineDiff | null;
  alert?: string | undefined;
  markdown?: string | undefined;
};

/**
 * One proposed edit: who proposed it with which client, the diff against the page's current
 * text (and against its base when the page moved on), then accept (the text as left in the
 * editor: edit, then accept) or decline with a note.
 */
export function ProposalPage(props: SpaceView & ProposalView) {
  const { wiki } = props.space;
  const p = props.proposal;
  const base = toolHref(wiki.id, `proposals/${p.id}`);
  const who = p.proposer_name || p.proposer_email || "an account";
  return (
    <WikiFrame {...props} title={`Proposal ${p.id}: ${p.page_path}`} path={p.page_path}>
      <Alert message={props.alert} />
      <p>
        {p.base_revision === 0 ? "A new page" : `A change from revision ${p.base_revision}`},
        proposed by {who} with {p.client_name ?? "an unnamed client"}, <Time at={p.created_at} />.
        {p.summary && <>“{p.summary}”</>}
      </p>
      <p>
        <a href={toolHref(wiki.id, "feedback")}>All feedback</a>
        {props.current.revision > 0 && (
          <>
            {" · "}
            <a href={pageHref(wiki.id, p.page_path)}>The page now</a>
          </>
        )}
      </p>
      {p.status !== "open"
        ? (
          <p class="notice" role="status">
            This proposal is {p.status}
            {p.result_revision !== null && ` (revision ${p.result_revision})`}
            {p.decision_note && `: ${p.decision_note}`}.
          </p>
        )
        : null}
      <h2>
        {props.current.revision === 0
          ? "The proposed page"
          : `Against the current text (revision ${props.current.revision})`}
      </h2>
      <DiffView diff={props.current.diff} label="Changes against the current text" />
      {props.fromBase && (
        <>
          <h2>Against the revision it started from ({p.base_revision})</h2>
          <p class="hint">
            The page moved on since the proposal was made: this is what the assistant changed.
          </p>
          <DiffView diff={props.fromBase} label="Changes against the base revision" />
        </>
      )}
      {p.status === "open" && (
        <>
          <h2>Accept</h2>
          <form method="post" action={`${base}/accept`} class="editor">
            <CsrfField token={props.csrfToken} />
            <input type="hidden" name="seen_revision" value={String(props.current.revision)} />
            <TextArea
              name="markdown"
              label="Text to publish"
              value={props.markdown ?? p.markdown}
              rows={16}
              class="code"
              hint="Edit it first if you like: accepting publishes what this field holds as a new revision"
            />
            <div class="actions">
              <button type="submit">Accept</button>
            </div>
          </form>
          <h2>Decline</h2>
          <form method="post" action={`${base}/decline`}>
            <CsrfField token={props.csrfToken} />
            <TextArea name="note" label="Note (why)" rows={3} />
            <div class="actions">
              <button type="submit" class="secondary">Decline</button>
            </div>
          </form>
        </>
      )}
    </WikiFrame>
  );
}
