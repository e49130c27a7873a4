import { CsrfField, Layout, type PageContext } from "../web/layout.tsx";
import type { ConnectedAppRow } from "./store.ts";

/** The apps connected to the account through OAuth, each with a button that disconnects it. */
export function ConnectedAppsPage(props: PageContext & { apps: ConnectedAppRow[] }) {
  return (
    <Layout title="Connected apps" account={props.account} csrfToken={props.csrfToken}>
      {props.apps.length === 0 ? <p>No app is connected to your account.</p> : (
        <table>
          <thead>
            <tr>
              <th>App</th>
              <th>Spaces</th>
              <th>Connected</th>
              <th>Last used</th>
              <th>
                <span class="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {props.apps.map((app) => (
              <tr>
                <td>{app.client_name}</td>
                <td>{app.space_ids.join(", ") || "none"}</td>
                <td>{app.created_at.toISOString().slice(0, 10)}</td>
                <td>{app.last_used_at?.toISOString().slice(0, 10) ?? "never"}</td>
                <td>
                  <form class="inline" method="post" action={`/account/apps/${app.id}/revoke`}>
                    <CsrfField token={props.csrfToken} />
                    <button type="submit">Disconnect</button>
                  </form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p>
        <a href="/account">Back to your account</a>
      </p>
    </Layout>
  );
}
