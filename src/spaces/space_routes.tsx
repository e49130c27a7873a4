import { type Context, Hono, type MiddlewareHandler } from "hono";
import { every } from "hono/combine";
import { HTTPException } from "hono/http-exception";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { ownBodyLimit } from "../http/body_limit.ts";
import { webErrorHandler } from "../sessions/web_error_handler.tsx";
import { webPage } from "../web/web_middleware.ts";
import { editorRoutes } from "./editor_routes.tsx";
import { historyRoutes } from "./history_routes.tsx";
import { importRoutes } from "./import_routes.tsx";
import { MAX_UPLOAD_BYTES } from "./import_uploads.ts";
import { manageRoutes } from "./manage_routes.tsx";
import { settingsRoutes } from "./settings_routes.tsx";
import { viewRoutes } from "./view_routes.tsx";

/** Largest form post besides imports: a page of `MAX_MARKDOWN_CHARS`, URL-encoded, fits. */
const MAX_FORM_BYTES = 8 * 1024 * 1024;

/**
 * The pages of a wiki at `/w/<id>` (the `url` MCP and REST give for pages), server-rendered:
 * reading, search, history and diffs, the editor, rename and delete, import and settings.
 * Tools live under the `-` segment, which no page path may start with. Mount after
 * `llmsRoutes`, which answers `/w/<id>/llms.txt` and `/w/<id>/<path>.md` first.
 */
export function spaceRoutes(deps: Deps): Hono {
  const app = new Hono();
  // Every form of a space is a member's: a signed-out post is refused before it is read.
  const form = every(...webPage(deps, { maxBody: MAX_FORM_BYTES, signedIn: true }));
  const upload = every(...webPage(deps, { maxBody: MAX_UPLOAD_BYTES, signedIn: true }));
  // Other features mount their own tools under `/w/<id>/-/`: leave those to them.
  const middleware: MiddlewareHandler = (c, next) => {
    const tool = toolOf(c.req.path);
    if (tool !== null && !TOOLS.has(tool)) return next();
    return (tool === "import" ? upload : form)(c, next);
  };
  // The forms' body limits are declared here, applied after the CSRF check.
  app.use("/w/:id/*", ownBodyLimit(middleware)); // `/w/:id` too

  app.route("/", editorRoutes(deps));
  app.route("/", manageRoutes(deps));
  app.route("/", importRoutes(deps));
  app.route("/", settingsRoutes(deps));
  app.route("/", historyRoutes(deps));
  app.route("/", viewRoutes(deps));

  const onError = webErrorHandler(deps, { signInNext: true });
  app.onError((error, c: Context) => onError(tooLarge(error) ?? error, c));
  return app;
}

/** The tools under `/w/<id>/-/` this feature serves. */
const TOOLS = new Set([
  "new",
  "edit",
  "preview",
  "rename",
  "delete",
  "history",
  "diff",
  "search",
  "import",
  "settings",
]);

/** The tool a path names (`/w/<id>/-/<tool>/…`), or null for a wiki's home or pages. */
export function toolOf(path: string): string | null {
  const segments = path.split("/");
  return segments[3] === "-" ? segments[4] ?? "" : null;
}

/** The body limit's 413 as an application error, so it renders as a page like the others. */
function tooLarge(error: Error): AppError | null {
  if (!(error instanceof HTTPException) || error.status !== 413) return null;
  return new AppError("payload_too_large", "What you sent is too large for this form");
}
