import { Alert, CsrfField, Field } from "../kit/web/form_kit.tsx";
import { toolHref } from "../kit/web/space_urls.ts";
import { type SpaceView, Time, WikiFrame } from "../kit/web/wiki_frame.tsx";
import type { SyncStatus } from "./connect_source.ts";
import type { SyncJobRow } from "./store.ts";
import { SyncSummary } from "./sync_summary.tsx";

/** The connection form's values. */
export type SyncForm = {
  url: string;
  branch: string;
  folder: string;
  interval: string;
};

/**
 * A space's Git sync for its owners and admins: the repository, branch and folder, an access
 * token (write-only), the schedule, the webhook to give the repository host, the freshness
 * (last commit and time, last error) and a "Sync now" button.
 */
export function SyncPage(
  props: SpaceView & {
    status: SyncStatus | null;
    values: SyncForm;
    jobs: SyncJobRow[];
    canStoreTokens: boolean;
    error?: string | undefined;
    notice?: string | undefined;
    /** Shown once: a new connection's or a rotated webhook secret. */
    webhookSecret?: string | null;
  },
) {
  const { wiki } = props.space;
  const status = props.status;
  return (
    <WikiFrame {...props} title={`Git sync of ${wiki.title}`}>
      <h1>Git sync</h1>
      <Alert message={props.error} />
      {props.notice && <p class="notice" role="status">{props.notice}</p>}
      {props.webhookSecret && (
        <div class="notice" role="status">
          <p>
            Webhook secret,{" "}
            <strong>shown this once</strong>: copy it into your repository host's webhook settings
            now.
          </p>
          <pre><code>{props.webhookSecret}</code></pre>
        </div>
      )}
      {status && <SyncSummary wikiId={wiki.id} status={status} csrfToken={props.csrfToken} />}
      {status && (
        <>
          <h2>Webhook</h2>
          <p>
            Payload URL: <code>{status.webhook_url}</code> (content type{" "}
            <code>application/json</code>, push events). See the guide page "Git sync" for GitHub,
            GitLab and Gitea.
          </p>
          <form method="post" action={toolHref(wiki.id, "sync/webhook-secret")}>
            <CsrfField token={props.csrfToken} />
            <button type="submit">New webhook secret</button>
          </form>
        </>
      )}

      <h2>{status ? "Change the connection" : "Connect a Git repository"}</h2>
      <p>
        The repository becomes the source of this space: each sync writes its markdown files as
        pages (a new revision per changed file, with the commit), renames and deletes them. Pages
        cannot be edited here while the space is connected, and pages the repository does not have
        are deleted by the first sync (their history stays).
      </p>
      <ConnectionForm
        wikiId={wiki.id}
        csrfToken={props.csrfToken}
        values={props.values}
        canStoreTokens={props.canStoreTokens}
        status={status}
      />

      {status && <Disconnect wikiId={wiki.id} csrfToken={props.csrfToken} jobs={props.jobs} />}
    </WikiFrame>
  );
}

/** The repository, branch, folder, token and schedule of the connection. */
function ConnectionForm(
  props: {
    wikiId: string;
    csrfToken: string;
    values: SyncForm;
    canStoreTokens: boolean;
    status: SyncStatus | null;
  },
) {
  const status = props.status;
  return (
    <form method="post" action={toolHref(props.wikiId, "sync")}>
      <CsrfField token={props.csrfToken} />
      <Field
        name="url"
        label="Repository URL (https)"
        required
        value={props.values.url}
        hint="e.g. https://github.com/acme/handbook.git"
      />
      <Field name="branch" label="Branch" required value={props.values.branch} />
      <Field
        name="folder"
        label="Folder in the repository"
        value={props.values.folder}
        hint="Empty for the whole repository, e.g. docs"
      />
      <Field
        name="token"
        label="Access token (private repositories)"
        type="password"
        autocomplete="off"
        hint={props.canStoreTokens
          ? (status?.has_token
            ? "A token is stored (never shown). Leave empty to keep it; it is dropped if the URL changes"
            : "Read-only access is enough; stored encrypted, never shown again")
          : "This server cannot store tokens: its operator has not set SYNC_SECRET_KEY. Public repositories need none"}
      />
      <Field
        name="interval"
        label="Sync every … minutes"
        value={props.values.interval}
        hint="Empty: only on demand and from the webhook"
      />
      <button type="submit">{status ? "Save the connection" : "Connect"}</button>
    </form>
  );
}

/** Disconnecting the repository, and the latest syncs. */
function Disconnect(props: { wikiId: string; csrfToken: string; jobs: SyncJobRow[] }) {
  return (
    <>
      <h2>Disconnect</h2>
      <form method="post" action={toolHref(props.wikiId, "sync/disconnect")}>
        <CsrfField token={props.csrfToken} />
        <p>The pages stay, and can be edited here again.</p>
        <button type="submit" class="danger">Disconnect the repository</button>
      </form>
      <h2>Latest syncs</h2>
      {props.jobs.length === 0 ? <p>None yet.</p> : (
        <ul>
          {props.jobs.map((job) => (
            <li>
              <Time at={new Date(job.created_at)} /> {job.reason}: {job.state}
              {job.error ? ` — ${job.error}` : ""}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
