import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { attachmentRoutes } from "../attachments/attachment_routes.tsx";
import { auditRoutes } from "../audit/audit_routes.tsx";
import { tokenRoutes } from "../auth/token_routes.tsx";
import { connectRoutes } from "../connect/connect_routes.tsx";
import { dashboardRoutes } from "../dashboard/dashboard_routes.tsx";
import { authorizeRoutes } from "../oauth/authorize_routes.tsx";
import { type DocumentFetcher, networkFetcher } from "../http/pinned_fetch.ts";
import { sessionRoutes } from "../sessions/session_routes.tsx";
import { teamRoutes } from "../teams/team_routes.tsx";
import { inviteLinkRoutes } from "../teams/invite_link_routes.tsx";
import { searchAllRoutes } from "../dashboard/search_all_routes.tsx";
import { webErrorHandler } from "../kit/web/web_error_handler.tsx";
import { withSpaceNav } from "../kit/web/space_nav.ts";
import { loadSpaceNav } from "../pages/load_space_nav.ts";
import { spaceBodyLimit, spaceRoutes } from "./space_routes.tsx";
import { usageRoutes } from "../usage/usage_routes.tsx";
import { peopleRoutes } from "../sharing/people_routes.tsx";
import { syncRoutes } from "../sync/sync_routes.tsx";
import { feedbackRoutes } from "../feedback/feedback_routes.tsx";
import { versionManageRoutes } from "../versions/version_manage_routes.tsx";
import { versionViewRoutes } from "../spaces/version_view_routes.tsx";
import { assetRoutes } from "./asset_routes.ts";
import { landingRoutes } from "../wikis/landing_routes.tsx";
import { shortcutsRoutes } from "./shortcuts_routes.tsx";
import { webPage, type WebPageOptions } from "./web_middleware.ts";

/**
 * Every path of the web app that sees sessions, with its middleware options. One list, so
 * "which paths honour the session cookie?" has one answer: none under `/mcp`, `/api`,
 * `/.well-known`, `/token`, `/register` or `/revoke`. Registered per path, not with
 * `use("*")`: mounted at "/", a wildcard would also run on those. (`/x/*` matches `/x` too.)
 */
const WEB_PATHS: [string, WebPageOptions][] = [
  ["/", {}],
  ["/signup", {}],
  ["/signin", {}],
  ["/signout", {}],
  ["/teams/*", {}],
  ["/invite/*", {}],
  ["/account", {}],
  ["/spaces", {}],
  ["/account/settings/*", {}],
  ["/account/search/*", {}],
  ["/account/tokens/*", { maxBody: 16 * 1024 }],
  ["/account/apps/*", {}],
  // The consent page drops `form-action` (browsers apply it to the redirect after the post,
  // which goes to the client) and sends no referrer (its URL carries the request).
  ["/authorize", { headers: { formAction: false, referrer: "no-referrer" } }],
  ["/connect", {}],
  ["/shortcuts", {}],
  // A wiki's pages and every feature's tools under `/w/<id>/-/`; imports take larger bodies.
  // Every form under a wiki is a member's, but a reader's "Was this page helpful?": any other
  // signed-out post is refused before it is read.
  ["/w/:id/*", { maxBody: spaceBodyLimit, signedIn: (path) => !path.endsWith("/-/helpful") }],
];

/**
 * The whole server-rendered web app: the web middleware (page headers, body limit, session,
 * CSRF) applied once per path of `WEB_PATHS`, then each feature's pages. Mount after the
 * machine routes (`/api/v1`, `/mcp`, OAuth, `llms.txt` and `.md` pages), which answer first.
 */
export function webRoutes(deps: Deps, options: { fetcher?: DocumentFetcher } = {}): Hono {
  const app = new Hono();
  for (const [path, pathOptions] of WEB_PATHS) app.use(path, ...webPage(deps, pathOptions));
  // A wiki's pages show its page tree: built by the pages feature, handed to the web kit.
  app.use("/w/:id/*", withSpaceNav((wikiId) => loadSpaceNav(deps, wikiId)));
  // Refusals of the middleware itself (CSRF, body limit) render as pages, like the features'.
  app.onError(webErrorHandler(deps, { signInNext: true }));
  app.route("/", sessionRoutes(deps));
  // Team pages answer errors as the account pages do: no "sign in and come back" link.
  const teams = teamRoutes(deps);
  teams.onError(webErrorHandler(deps, { signInNext: false }));
  app.route("/", teams);
  const invites = inviteLinkRoutes(deps);
  invites.onError(webErrorHandler(deps, { signInNext: true }));
  app.route("/", invites);
  app.route("/", dashboardRoutes(deps));
  app.route("/", searchAllRoutes(deps));
  app.route("/", authorizeRoutes(deps, options.fetcher ?? networkFetcher));
  app.route("/", tokenRoutes(deps));
  app.route("/", auditRoutes(deps));
  app.route("/", connectRoutes(deps));
  app.route("/", usageRoutes(deps));
  app.route("/", peopleRoutes(deps));
  app.route("/", attachmentRoutes(deps));
  app.route("/", syncRoutes(deps));
  app.route("/", feedbackRoutes(deps));
  app.route("/", versionManageRoutes(deps));
  app.route("/", versionViewRoutes(deps));
  app.route("/", spaceRoutes(deps));
  app.route("/", assetRoutes());
  app.route("/", shortcutsRoutes());
  app.route("/", landingRoutes(deps));
  return app;
}
