import type { Child } from "hono/jsx";
import { PageFrame, type SpaceView } from "../kit/web/wiki_frame.tsx";
import type { PageContext } from "../kit/web/layout.tsx";
import { pageUrl } from "../lib/urls.ts";
import { type Client, CLIENTS, type Endpoint, TOKEN_PLACEHOLDER } from "./client_configs.ts";

/** An endpoint as the connect page lists it. */
export type EndpointView = Endpoint & {
  /** Short and unique on the page: part of each snippet's id. */
  key: string;
  label: string;
  /** What it serves and with which credential. */
  scope: string;
};

/**
 * Configuration of every client for the given endpoints, a tab per client (`docs_blocks.js`,
 * the WAI-ARIA tabs pattern; without script every client shows under its heading), each
 * snippet with a Copy button (`/assets/copy.js`; without script the text stays selectable). Private endpoints show a
 * placeholder for the token, never a real one.
 */
export function ConnectPage(
  props: PageContext & {
    title: string;
    intro: Child;
    endpoints: EndpointView[];
    baseUrl: string;
    /** False when hosted assistants cannot reach `baseUrl` (http, or a local name). */
    reachable: boolean;
    /** The wiki the page is about, whose navigation it keeps. */
    view?: SpaceView;
  },
) {
  const anyPrivate = props.endpoints.some((e) => e.private);
  return (
    <PageFrame
      title={props.title}
      account={props.account}
      csrfToken={props.csrfToken}
      view={props.view}
    >
      {props.intro}
      <EndpointTable endpoints={props.endpoints} />
      {anyPrivate && (
        <div class="notice">
          <p>
            Replace <code>{TOKEN_PLACEHOLDER}</code> with a token from{" "}
            <a href="/account/tokens">your tokens</a>: an account token opens all your spaces, a
            space token one space. This page never shows a token; treat yours as a password.
          </p>
          <p>
            Claude (claude.ai and Claude Desktop) and ChatGPT take no pasted token: they sign you in
            with OAuth, and you choose the spaces they may read.
          </p>
        </div>
      )}
      {!props.reachable && (
        <p class="alert">
          This server's address,{" "}
          <code>{props.baseUrl}</code>, cannot be reached from the internet (it is not https, or it
          is a local name). Editors and command-line clients on this network can connect; Claude and
          ChatGPT apps and the API connectors cannot.
        </p>
      )}
      <h2>Pick your client</h2>
      {props.endpoints.length > 1 && (
        <fieldset class="endpoint-choice" data-endpoint-choice hidden>
          <legend>Endpoint</legend>
          {props.endpoints.map((e) => (
            <label>
              <input
                type="radio"
                name="endpoint"
                value={e.key}
                checked={e.key === defaultEndpoint(props.endpoints, props.account !== null)}
              />{" "}
              {e.label}
            </label>
          ))}
        </fieldset>
      )}
      <div class="tabs" data-tabs data-tabs-label="Clients">
        {CLIENTS.map((client) => ClientSection({ client, endpoints: props.endpoints }))}
      </div>
      <p>
        In clients that support MCP Apps (Claude, ChatGPT, VS Code with Copilot, Cursor, Goose),
        answers, search results and pages also appear as a view in the conversation: the answer with
        its sources, each quote highlighted in its page, a click away from the page, and a button to
        report a wrong answer. Other clients show the same results as text.
      </p>
      <p>
        Tools and endpoints are described in the guide:{" "}
        <a href={pageUrl("", "docs", "Connecting an assistant")}>Connecting an assistant</a> and
        {" "}
        <a href={pageUrl("", "docs", "Tools")}>Tools</a>.
      </p>
      <script src="/assets/copy.js" defer></script>
      <script src="/assets/docs_blocks.js" defer></script>
      <script src="/assets/connect.js" defer></script>
    </PageFrame>
  );
}

/** The endpoints the page configures, with their addresses and what each serves. */
function EndpointTable({ endpoints }: { endpoints: EndpointView[] }) {
  return (
    <table>
      <caption class="sr-only">Endpoints</caption>
      <thead>
        <tr>
          <th scope="col">Endpoint</th>
          <th scope="col">Address</th>
          <th scope="col">Serves</th>
        </tr>
      </thead>
      <tbody>
        {endpoints.map((e) => (
          <tr>
            <th scope="row">{e.label}</th>
            <td class="path">
              <code>{e.url}</code>
            </td>
            <td>{e.scope}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ClientSection(props: { client: Client; endpoints: EndpointView[] }) {
  const { client } = props;
  const many = props.endpoints.length > 1;
  return (
    <section
      class="tab client"
      id={client.id}
      data-tab-label={client.title}
      aria-labelledby={`${client.id}-title`}
    >
      <h2 class="tab-label" id={`${client.id}-title`}>{client.title}</h2>
      {props.endpoints.map((endpoint) => {
        const config = client.config(endpoint);
        const id = `${client.id}-${endpoint.key}`;
        const what = config.language === "url" ? "address" : "configuration";
        return (
          <div data-endpoint={endpoint.key}>
            {many && <h3>{endpoint.label}</h3>}
            <p>
              <strong>Where:</strong> {config.where}
            </p>
            <pre><code id={id} class={`language-${config.language}`}>{config.snippet}</code></pre>
            <button type="button" class="copy" data-copy={id} hidden>
              Copy<span class="sr-only">{` the ${client.title} ${what}`}</span>
            </button>
            {config.steps && (
              <ol>
                {config.steps.map(listItem)}
              </ol>
            )}
            {config.notes.length > 0 && (
              <ul class="hint">
                {config.notes.map(listItem)}
              </ul>
            )}
          </div>
        );
      })}
    </section>
  );
}

/** The endpoint shown first: the private one to a signed-in person, else the first. */
function defaultEndpoint(endpoints: EndpointView[], signedIn: boolean): string {
  return (signedIn && endpoints.find((e) => e.private)?.key) || endpoints[0]!.key;
}

function listItem(text: string) {
  return <li>{text}</li>;
}
