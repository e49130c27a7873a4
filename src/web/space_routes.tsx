import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { webErrorHandler } from "../kit/web/web_error_handler.tsx";
import { DEFAULT_MAX_BODY } from "./web_middleware.ts";
import { askRoutes } from "../ask/ask_routes.tsx";
import { searchRoutes } from "../search/search_routes.tsx";
import { editorRoutes } from "../spaces/editor_routes.tsx";
import { historyRoutes } from "../spaces/history_routes.tsx";
import { importRoutes } from "../spaces/import_routes.tsx";
import { MAX_UPLOAD_BYTES } from "../spaces/import_uploads.ts";
import { manageRoutes } from "../spaces/manage_routes.tsx";
import { markdownRoutes } from "../spaces/markdown_routes.ts";
import { settingsRoutes } from "../spaces/settings_routes.tsx";
import { viewRoutes } from "../spaces/view_routes.tsx";

/** Largest form post besides imports: a page of `MAX_MARKDOWN_CHARS`, URL-encoded, fits. */
const MAX_FORM_BYTES = 8 * 1024 * 1024;

/**
 * The pages of a wiki at `/w/<id>` (the `url` MCP and REST give for pages), server-rendered:
 * reading, search, history and diffs, the editor, rename and delete, import and settings.
 * Tools live under the `-` segment, which no page path may start with. Mount after
 * `llmsRoutes`, which answers `/w/<id>/llms.txt` and public wikis' `/w/<id>/<path>.md` first
 * (private pages' `.md` are `markdownRoutes`').
 */
export function spaceRoutes(deps: Deps): Hono {
  const app = new Hono();
  app.route("/", editorRoutes(deps));
  app.route("/", manageRoutes(deps));
  app.route("/", importRoutes(deps));
  app.route("/", settingsRoutes(deps));
  app.route("/", historyRoutes(deps));
  app.route("/", markdownRoutes(deps));
  app.route("/", askRoutes(deps));
  app.route("/", searchRoutes(deps));
  app.route("/", viewRoutes(deps));

  app.onError(webErrorHandler(deps, { signInNext: true }));
  return app;
}

/**
 * The largest body a request to `/w/<id>/…` may carry: an import's files, a page's markdown
 * for this feature's forms, and the web default for other features' tools under `/-/`.
 */
export function spaceBodyLimit(path: string): number {
  const tool = toolOf(path);
  // Imports and file uploads (`src/attachments/`) carry files.
  if (tool === "import" || tool === "files") return MAX_UPLOAD_BYTES;
  // A proposal's review form carries a whole page (`src/feedback/`).
  if (tool === "proposals" || tool === "feedback") return MAX_FORM_BYTES;
  return tool === null || TOOLS.has(tool) ? MAX_FORM_BYTES : DEFAULT_MAX_BODY;
}

/** The tools under `/w/<id>/-/` this feature serves. */
const TOOLS = new Set([
  "new",
  "suggest",
  "ask",
  "pages",
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
