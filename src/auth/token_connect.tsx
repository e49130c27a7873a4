import { CLIENTS, withToken } from "../connect/client_configs.ts";

/**
 * Right after a token is made: each client's configuration with that token filled in, one
 * collapsed section a client, and a button that tries the token on `/mcp/` and says what it
 * reaches (`/assets/token_check.js`). A space token's configuration needs no `space`
 * parameter: the token names its space. Shown once, with the token.
 */
export function ConnectWithToken(props: { token: string; baseUrl: string; space?: string }) {
  const endpoint = {
    url: `${props.baseUrl}/mcp/`,
    name: props.space ? `wiki-${props.space}` : "wiki",
    private: true,
  };
  const clients = CLIENTS.filter((c) => !c.oauthOnly);
  return (
    <section aria-labelledby="connect-token-heading" data-token-check={props.token}>
      <h2 id="connect-token-heading">Connect an assistant with this token</h2>
      <p>
        Each snippet below already holds the token: copy it as it is. Like the token, they are shown
        only now; treat them as passwords.
      </p>
      <p>
        <button type="button" class="secondary" data-check-token hidden>
          Test this connection
        </button>
        <span role="status" data-check-result></span>
      </p>
      {clients.map((client) => {
        const config = withToken(client.config(endpoint), props.token);
        const id = `token-${client.id}`;
        return (
          <details class="client">
            <summary>{client.title}</summary>
            <p>{config.where}</p>
            {config.steps && <ol>{config.steps.map((s) => <li>{s}</li>)}</ol>}
            <pre><code id={id}>{config.snippet}</code></pre>
            <button type="button" class="copy" data-copy={id} hidden>Copy</button>
          </details>
        );
      })}
      <script src="/assets/token_check.js" defer></script>
    </section>
  );
}
