import { Alert, CsrfField } from "../kit/web/form_kit.tsx";
import type { Space } from "../access/access_policy.ts";
import { Layout, type PageContext } from "../kit/web/layout.tsx";
import { AUTHORIZATION_PARAMS, type AuthorizationRequest } from "./authorize.ts";

/**
 * The consent page: which app asks (for a metadata-document client, the host of its
 * client_id, which it cannot fake, next to the name it claims), where the answer will go
 * (the redirect URI's host, as the MCP spec requires), and the spaces to grant.
 */
export function ConsentPage(
  props: PageContext & {
    request: AuthorizationRequest;
    params: URLSearchParams;
    spaces: Space[];
    error?: string;
  },
) {
  const { client, redirectUri } = props.request;
  const redirectHost = hostOf(redirectUri);
  const loopback = /^http:\/\/(127\.0\.0\.1|\[::1\]|localhost)(:|\/|$)/.test(redirectUri);
  const asksToWrite = props.request.scope.split(" ").includes("wiki:write");
  return (
    <Layout title="Connect an app" account={props.account} csrfToken={props.csrfToken}>
      <Alert message={props.error} />
      <p>
        <strong>{client.name}</strong>
        {client.kind === "cimd" && <>(published by {hostOf(client.id)})</>}{" "}
        wants to read your wiki spaces on your behalf.
      </p>
      <p>
        After you answer, you go back to <strong>{redirectHost}</strong>
        {loopback && " (an app on this computer)"}. Only continue if you started this from that app.
      </p>
      <form method="post" action="/authorize">
        <CsrfField token={props.csrfToken} />
        {AUTHORIZATION_PARAMS.map((name) =>
          props.params.has(name) && (
            <input type="hidden" name={name} value={props.params.get(name) ?? ""} />
          )
        )}
        <p>
          It may list the spaces you pick, search them, read their pages and follow their links, and
          record which pages helped it (you see those uses on each space's usage page), and report
          problems with pages. {asksToWrite
            ? "It cannot change or delete anything unless you allow edits below."
            : "It cannot change or delete anything."} You can disconnect it at any time under{" "}
          <a href="/account/apps">Connected apps</a>.
        </p>
        <fieldset>
          <legend>Spaces it may read</legend>
          {props.spaces.length === 0
            ? <p>You have no spaces yet.</p>
            : props.spaces.map((s) => (
              <label>
                <input
                  type="checkbox"
                  name="space"
                  value={s.id}
                  checked={props.spaces.length === 1}
                />{" "}
                {s.title} ({s.id})
              </label>
            ))}
        </fieldset>
        {asksToWrite && (
          <fieldset>
            <legend>Edits</legend>
            <label>
              <input type="checkbox" name="allow_write" value="on" />{" "}
              Also let it propose edits to these spaces (wiki:write). Each proposal waits for an
              owner of the space to accept it.
            </label>
          </fieldset>
        )}
        <button type="submit" name="decision" value="allow">Allow</button>{" "}
        <button type="submit" name="decision" value="deny">Deny</button>
      </form>
    </Layout>
  );
}

function hostOf(uri: string): string {
  try {
    const url = new URL(uri);
    return url.host || `${url.protocol}//`;
  } catch {
    return uri;
  }
}
