import type { PublicWiki } from "./list_public_wikis.ts";
import { Layout, type PageContext } from "../kit/web/layout.tsx";

/**
 * The front page: what the service is, how to give an assistant the public wikis in a minute,
 * and the public wikis themselves.
 */
export function LandingPage(
  props: PageContext & { baseUrl: string; wikis: PublicWiki[]; more: boolean },
) {
  const hub = `${props.baseUrl}/mcp/hub/`;
  return (
    <Layout
      title="A wiki your assistant can read"
      account={props.account}
      csrfToken={props.csrfToken}
    >
      <p class="lead">
        Keep what you know in wikis — public ones for everyone, private spaces for you and your
        teams — and let AI assistants search them, read pages, follow links and cite them, over MCP,
        a REST API, or this site.
      </p>
      <h2>Connect an assistant in one minute</h2>
      <ol>
        <li>
          Add this MCP server address to your assistant (no sign-in needed for public wikis):
          <pre><code id="hub-url">{hub}</code></pre>
          <button type="button" class="copy" data-copy="hub-url" hidden>Copy</button>
        </li>
        <li>
          In Claude Code, for example:
          <pre><code id="hub-cli">{`claude mcp add --transport http wiki-hub ${hub}`}</code></pre>
          <button type="button" class="copy" data-copy="hub-cli" hidden>Copy</button>
        </li>
        <li>
          Ask it something. It lists the wikis, searches them and reads pages with{" "}
          <code>search</code>, <code>get_page</code> and <code>neighbors</code>.
        </li>
      </ol>
      <p>
        <a href="/connect">Configuration for every client</a>{" "}
        (Claude, ChatGPT, Cursor, VS Code, Gemini CLI, Windsurf, Cline, the Anthropic and OpenAI
        APIs). {props.account ? <a href="/account">Your spaces</a> : (
          <>
            For private spaces, <a href="/signup">create an account</a>.
          </>
        )}
      </p>
      <h2 id="wikis">Public wikis</h2>
      {props.wikis.length === 0 ? <p>No public wiki yet.</p> : (
        <ul class="wikis">
          {props.wikis.map((w) => (
            <li>
              <a href={`/w/${w.id}`}>{w.title}</a> <code>{w.id}</code> · {w.pages}{" "}
              {w.pages === 1 ? "page" : "pages"}
              {w.description && <p class="hint">{w.description}</p>}
            </li>
          ))}
        </ul>
      )}
      {props.more && (
        <p>
          More in the <a href="/api/v1/public/wikis">API listing</a>.
        </p>
      )}
      <h2>For programs</h2>
      <p>
        The <a href="/api/v1/docs">REST API</a>{" "}
        lists spaces, reads pages and answers questions with citations;{" "}
        <a href="/llms.txt">/llms.txt</a> describes the service for language models.
      </p>
      <script src="/assets/copy.js" defer></script>
    </Layout>
  );
}
