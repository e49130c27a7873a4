import type { Space } from "../access/access_policy.ts";
import type { TokenRow } from "./store.ts";
import { Alert, CsrfField, Field, Layout, type PageContext } from "../web/layout.tsx";

/** The account's tokens: a form to make one, the new one shown once, and the list with revoke. */
export function TokensPage(
  props: PageContext & { tokens: TokenRow[]; spaces: Space[]; created?: string; error?: string },
) {
  return (
    <Layout title="Tokens" account={props.account} csrfToken={props.csrfToken}>
      <p>
        An <strong>account token</strong> opens all your spaces, over MCP and the REST API. A{" "}
        <strong>space token</strong> opens one space, over MCP only. Treat them as passwords.
      </p>
      {props.created && (
        <div class="alert" role="status">
          <p>Your new token. Copy it now: it is shown only once.</p>
          <pre><code id="new-token">{props.created}</code></pre>
          <button type="button" class="copy" data-copy="new-token" hidden>Copy token</button>
        </div>
      )}
      <Alert message={props.error} />
      <form method="post" action="/account/tokens">
        <CsrfField token={props.csrfToken} />
        <Field
          name="name"
          label="Name"
          hint="Where it will be used, e.g. Cursor on my laptop"
          required
        />
        <div>
          <label for="field-space">Opens</label>
          <select id="field-space" name="space">
            <option value="">All my spaces (account token)</option>
            {props.spaces.map((s) => (
              <option key={s.id} value={s.id}>Only {s.title} (space token)</option>
            ))}
          </select>
        </div>
        <fieldset>
          <legend>May</legend>
          <label>
            <input type="radio" name="scope" value="read" checked /> Read
          </label>
          <label>
            <input type="radio" name="scope" value="read_propose" />{" "}
            Read and propose edits (each proposal waits for an owner's review)
          </label>
        </fieldset>
        <Field
          name="expires_days"
          label="Expires after (days)"
          type="number"
          hint="Leave empty for no expiry"
        />
        <button type="submit">Create token</button>
      </form>
      <h2>Your tokens</h2>
      {props.tokens.length === 0 ? <p>No token yet.</p> : (
        <table>
          <thead>
            <tr>
              <th>Name</th>
              <th>Kind</th>
              <th>Starts with</th>
              <th>Last used</th>
              <th>Expires</th>
              <th>
                <span class="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {props.tokens.map((t) => (
              <tr>
                <td>{t.name}</td>
                <td>
                  {t.kind === "space" ? `space: ${t.wiki_id}` : "account"}
                  {t.scope === "read_propose" ? ", read and propose" : ", read"}
                </td>
                <td>
                  <code>{t.hint}…</code>
                </td>
                <td>{t.last_used_at?.toISOString().slice(0, 16).replace("T", " ") ?? "never"}</td>
                <td>{t.expires_at?.toISOString().slice(0, 10) ?? "never"}</td>
                <td>
                  {t.revoked_at
                    ? "revoked"
                    : (
                      <form class="inline" method="post" action={`/account/tokens/${t.id}/revoke`}>
                        <CsrfField token={props.csrfToken} />
                        <button type="submit">Revoke</button>
                      </form>
                    )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p>
        Next: <a href="/connect">paste it into your assistant's configuration</a>.
      </p>
      <script src="/assets/copy.js" defer></script>
    </Layout>
  );
}
