import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import type {} from "../http/request_id.ts";
import { timeout } from "../http/request_timeout.ts";
import { ImportPage } from "./import_page.tsx";
import { importUploads } from "./import_uploads.ts";
import { openSpace } from "../kit/web/space_context.ts";
import { uploadFileNames } from "./upload_file_names.ts";

/** Importing markdown files and zips through the web: the form and its per-file report. */
export function importRoutes(deps: Deps): Hono {
  const app = new Hono();

  app.get("/w/:id/-/import", async (c) => {
    const view = await openSpace(deps, c, "write");
    return c.html(<ImportPage {...view} />);
  });

  const importTimeout = timeout({ ms: deps.config.timeouts.importMs, log: deps.log });
  app.post("/w/:id/-/import", importTimeout, async (c) => {
    const view = await openSpace(deps, c, "write");
    const form = await c.req.parseBody({ all: true });
    // The names as sent (`formData()` mangles some); Hono keeps the raw body it parsed.
    const names = uploadFileNames(
      await c.req.bytes(),
      c.req.header("content-type") ?? "",
      "files",
    );
    const parts = [form.files ?? []].flat().filter((f): f is File => f instanceof File);
    const files = parts.map((f, i) =>
      renamed(f, names.length === parts.length ? names[i]! : f.name)
    )
      // A file input left empty still sends one part, with no name.
      .filter((f) => f.name !== "");
    if (files.length === 0) {
      return c.html(
        <ImportPage {...view} error="Choose one or more .md files, or a .zip of them" />,
        400,
      );
    }
    try {
      const report = await importUploads(deps, view.space.wiki.id, files, view.account!.id);
      const { summary } = report;
      deps.log.info("web import", {
        request_id: c.get("requestId"),
        wiki: view.space.wiki.id,
        added: summary.added,
        updated: summary.updated,
        unchanged: summary.unchanged,
        failed: summary.failed.length,
      });
      return c.html(<ImportPage {...view} report={report} />);
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      return c.html(
        <ImportPage {...view} error={error.detail} />,
        error.status as ContentfulStatusCode,
      );
    }
  });

  return app;
}

/** The file under the name it was sent with. */
function renamed(file: File, name: string): File {
  return name === file.name ? file : new File([file], name, { type: file.type });
}
