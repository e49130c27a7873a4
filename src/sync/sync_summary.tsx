import { CsrfField } from "../kit/web/form_kit.tsx";
import { toolHref } from "../kit/web/space_urls.ts";
import { Time } from "../kit/web/wiki_frame.tsx";
import type { SyncStatus } from "./connect_source.ts";

/** The freshness of a synced space and its "Sync now" button (also on the settings page). */
export function SyncSummary(props: { wikiId: string; status: SyncStatus; csrfToken: string }) {
  const s = props.status;
  return (
    <section aria-label="Git sync">
      <p>
        Synced from <code>{s.url}</code>, branch <code>{s.branch}</code>
        {s.folder
          ? (
            <>
              , folder <code>{s.folder}</code>
            </>
          )
          : ""}. {s.last_commit
          ? (
            <>
              Last synced commit <code title={s.last_commit}>{s.last_commit.slice(0, 12)}</code> at
              {" "}
              <Time at={new Date(s.last_synced_at!)} />.
            </>
          )
          : "Not synced yet."}
        {s.interval_minutes ? ` Every ${s.interval_minutes} minutes.` : ""}
      </p>
      {s.last_error && (
        <p class="error" role="alert">
          The last {s.failures === 1 ? "sync" : `${s.failures} syncs`} failed: {s.last_error}
        </p>
      )}
      <form method="post" action={toolHref(props.wikiId, "sync/now")}>
        <CsrfField token={props.csrfToken} />
        <button type="submit">Sync now</button>{" "}
        <a href={toolHref(props.wikiId, "sync")}>Git sync settings</a>
      </form>
    </section>
  );
}
