import { Alert, CsrfField, Field, RevokeTable, SelectField } from "../kit/web/form_kit.tsx";
import type { Space } from "../access/access_policy.ts";
import type { TokenRow } from "./store.ts";
import { Layout, type PageContext } from "../kit/web/layout.tsx";
import { ConnectWithToken } from "./token_connect.tsx";

/** The account's tokens: a form to make one, the new one shown once, and the list with revoke. */
export function TokensPage(
  props: PageContext & {
    tokens: TokenRow[];
    spaces: Space[];
    created?: string;
    /** The space of the token just made (a space token), for its snippets' server name. */
    createdSpace?: string | undefined;
    baseUrl: string;
    error?: string;
  },
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
      {props.created && (
        <ConnectWithToken
          token={props.created}
          baseUrl={props.baseUrl}
          space={props.createdSpace}
        />
      )}
      <Alert message={props.error} />
      <NewTokenForm csrfToken={props.csrfToken} spaces={props.spaces} />
      <h2>Your tokens</h2>
      <TokenList csrfToken={props.csrfToken} tokens={props.tokens} />
      <p>
        Next: <a href="/connect">paste it into your assistant's configuration</a>.
      </p>
      <script src="/assets/copy.js" defer></script>
    </Layout>
  );
}

/** The form that makes a token: its name, the spaces it opens, what it may do, its expiry. */
function NewTokenForm(props: { csrfToken: string; spaces: Space[] }) {
  return (
    <form method="post" action="/account/tokens">
      <CsrfField token={props.csrfToken} />
      <Field
        name="name"
        label="Name"
        hint="Where it will be used, e.g. Cursor on my laptop"
        required
      />
      <SelectField
        name="space"
        label="Opens"
        options={[
          { value: "", label: "All my spaces (account token)" },
          ...props.spaces.map((s) => ({ value: s.id, label: `Only ${s.title} (space token)` })),
        ]}
      />
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
  );
}

/** The account's tokens, each with its kind, scope, hint, use and expiry, and revoke. */
function TokenList(props: { csrfToken: string; tokens: TokenRow[] }) {
  return (
    <>
      {props.tokens.length === 0 ? <p>No token yet.</p> : (
        <RevokeTable
          csrfToken={props.csrfToken}
          headers={["Name", "Kind", "Starts with", "Last used", "Expires"]}
          rows={props.tokens.map((t) => ({
            cells: [
              t.name,
              `${t.kind === "space" ? `space: ${t.wiki_id}` : "account"}${
                t.scope === "read_propose" ? ", read and propose" : ", read"
              }`,
              (
                <code>{t.hint}…</code>
              ),
              t.last_used_at?.toISOString().slice(0, 16).replace("T", " ") ?? "never",
              t.expires_at?.toISOString().slice(0, 10) ?? "never",
            ],
            action: t.revoked_at
              ? "revoked"
              : { href: `/account/tokens/${t.id}/revoke`, label: "Revoke" },
          }))}
        />
      )}
    </>
  );
}
