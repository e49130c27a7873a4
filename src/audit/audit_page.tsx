import { Layout, type PageContext } from "../kit/web/layout.tsx";
import type { AuditRow } from "./store.ts";

const CREDENTIALS: Record<AuditRow["credential_kind"], string> = {
  account_token: "account token",
  space_token: "space token",
  oauth: "OAuth app",
};

/** A space's audit log, newest first, with a link to older entries. */
export function AuditPage(
  props: PageContext & {
    wikiId: string;
    title: string;
    entries: AuditRow[];
    olderHref: string | null;
    newestHref: string | null;
    retentionDays: number;
  },
) {
  return (
    <Layout
      title={`Audit log of ${props.title}`}
      account={props.account}
      csrfToken={props.csrfToken}
    >
      <p>
        Every MCP tool call and REST request made with a token on space{" "}
        <code>{props.wikiId}</code>: who, with which credential, what, and when (UTC). Entries are
        kept {props.retentionDays} days.
      </p>
      {props.entries.length === 0 ? <p>No entry yet.</p> : (
        <table>
          <thead>
            <tr>
              <th>When</th>
              <th>Who</th>
              <th>Credential</th>
              <th>What</th>
              <th>Outcome</th>
            </tr>
          </thead>
          <tbody>
            {props.entries.map((e) => (
              <tr>
                <td>
                  <time datetime={e.at.toISOString()}>
                    {e.at.toISOString().slice(0, 19).replace("T", " ")}
                  </time>
                </td>
                <td>{e.account_name || e.account_email || "a deleted account"}</td>
                <td>{credentialLabel(e)}</td>
                <td>
                  {e.channel === "mcp" ? "MCP" : "REST"} <code>{e.action}</code>
                  {e.target && <>{" "}{e.target}</>}
                </td>
                <td>{e.outcome}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav aria-label="Pages of the log">
        {props.newestHref && <a href={props.newestHref}>Newest entries</a>}{" "}
        {props.olderHref && <a href={props.olderHref}>Older entries</a>}
      </nav>
    </Layout>
  );
}

function credentialLabel(e: AuditRow): string {
  const kind = CREDENTIALS[e.credential_kind] ?? e.credential_kind;
  if (e.credential_kind === "oauth") return `${kind} “${e.client_name ?? "unnamed"}”`;
  const name = e.token_name ? ` “${e.token_name}”` : " (deleted)";
  const via = e.client_name ? ` via ${e.client_name}` : "";
  return `${kind}${name}${via}`;
}
