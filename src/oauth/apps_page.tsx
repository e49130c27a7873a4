import { RevokeTable } from "../kit/web/form_kit.tsx";
import { Layout, type PageContext } from "../kit/web/layout.tsx";
import type { ConnectedAppRow } from "./store.ts";

/** The apps connected to the account through OAuth, each with a button that disconnects it. */
export function ConnectedAppsPage(props: PageContext & { apps: ConnectedAppRow[] }) {
  return (
    <Layout title="Connected apps" account={props.account} csrfToken={props.csrfToken}>
      {props.apps.length === 0 ? <p>No app is connected to your account.</p> : (
        <RevokeTable
          csrfToken={props.csrfToken}
          headers={["App", "Spaces", "Connected", "Last used"]}
          rows={props.apps.map((app) => ({
            cells: [
              app.client_name,
              app.space_ids.join(", ") || "none",
              app.created_at.toISOString().slice(0, 10),
              app.last_used_at?.toISOString().slice(0, 10) ?? "never",
            ],
            action: { href: `/account/apps/${app.id}/revoke`, label: "Disconnect" },
          }))}
        />
      )}
      <p>
        <a href="/account">Back to your account</a>
      </p>
    </Layout>
  );
}
