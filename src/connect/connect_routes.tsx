import { reachableSpaces } from "../access/access_policy.ts";
import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { webErrorHandler } from "../kit/web/web_error_handler.tsx";
import { openSpace } from "../kit/web/space_context.ts";
import { reachableFromInternet } from "./client_configs.ts";
import { ConnectPage, type EndpointView } from "./connect_page.tsx";

/**
 * "Connect an assistant": `GET /connect` for the public hub and the private endpoint (signed
 * out too), `GET /w/:id/-/connect` for one wiki: its public endpoint if it is public, and the
 * private endpoint for its members.
 */
export function connectRoutes(deps: Deps): Hono {
  const app = new Hono();

  connectPageRoute(app, deps);
  spaceConnectRoute(app, deps);

  app.onError(webErrorHandler(deps, { signInNext: true }));
  return app;
}

/** `GET /connect`: the connect page, for the hub and the signed-in person's spaces. */
function connectPageRoute(app: Hono, deps: Deps): void {
  const base = deps.config.baseUrl;
  const reachable = reachableFromInternet(base);
  app.get("/connect", async (c) => {
    const account = c.get("account");
    const spaces = account
      ? await reachableSpaces(deps.db, { kind: "session", accountId: account.id })
      : [];
    const endpoints: EndpointView[] = [
      {
        key: "hub",
        label: "Public wikis",
        url: `${base}/mcp/hub/`,
        name: "wiki-hub",
        private: false,
        scope: "Every public wiki; the assistant picks one per call. No token.",
      },
      {
        key: "private",
        label: "Your private spaces",
        url: `${base}/mcp/`,
        name: "wiki",
        private: true,
        scope: "Your spaces, with a token or an OAuth sign-in.",
      },
    ];
    const intro = (
      <>
        <p class="lead">
          Any assistant that speaks MCP over Streamable HTTP can read these wikis. Pick the
          endpoint, then copy your client's configuration below.
        </p>
        {spaces.length > 0 && (
          <p>
            For one wiki only: {spaces.map((s, i) => (
              <>
                {i > 0 && ", "}
                <a href={`/w/${s.id}/-/connect`}>{s.title}</a>
              </>
            ))}.
          </p>
        )}
      </>
    );
    return c.html(
      <ConnectPage
        account={account}
        csrfToken={c.get("csrfToken")}
        title="Connect an assistant"
        {...{ intro, endpoints, baseUrl: base, reachable }}
      />,
    );
  });
}

/** `GET /w/<id>/-/connect`: connecting an assistant to one wiki. */
function spaceConnectRoute(app: Hono, deps: Deps): void {
  const base = deps.config.baseUrl;
  const reachable = reachableFromInternet(base);
  app.get("/w/:id/-/connect", async (c) => {
    const view = await openSpace(deps, c, "read");
    const { wiki, role } = view.space;
    const isPublic = wiki.visibility === "public";
    const endpoints: EndpointView[] = [];
    if (isPublic) {
      endpoints.push({
        key: "public",
        label: "This public wiki",
        url: `${base}/mcp/w/${wiki.id}/`,
        name: `wiki-${wiki.id}`,
        private: false,
        scope: "This wiki alone. No token.",
      });
    }
    if (role) {
      endpoints.push({
        key: "private",
        label: isPublic ? "As a member" : "This space",
        url: `${base}/mcp/`,
        name: isPublic ? `wiki-${wiki.id}-member` : `wiki-${wiki.id}`,
        private: true,
        scope: `Your spaces, ${wiki.id} among them, with a token or an OAuth sign-in` +
          (isPublic ? "; adds confirm_use, so its usage page shows what helped." : "."),
      });
    }
    const intro = (
      <>
        <p class="lead">
          Connect an assistant to <a href={`/w/${wiki.id}`}>{wiki.title}</a>{" "}
          <code>{wiki.id}</code>, then copy your client's configuration below.
        </p>
        {role && (
          <p>
            With an account token (or OAuth), the assistant passes <code>space: "{wiki.id}"</code>
            {" "}
            to the tools when you have more than one space. A space token made for{" "}
            <code>{wiki.id}</code> opens it alone and needs no <code>space</code>.
          </p>
        )}
        <p>
          <a href="/connect">All public wikis and all your spaces</a> at once.
        </p>
      </>
    );
    return c.html(
      <ConnectPage
        account={c.get("account")}
        csrfToken={c.get("csrfToken")}
        title={`Connect an assistant to ${wiki.title}`}
        view={view}
        {...{ intro, endpoints, baseUrl: base, reachable }}
      />,
    );
  });
}
