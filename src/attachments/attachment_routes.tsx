import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { webErrorHandler } from "../kit/web/web_error_handler.tsx";
import { openSpace } from "../kit/web/space_context.ts";
import { attachmentUsage, findAttachment, listAttachments, saveAttachment } from "./attachments.ts";
import { exportWikiZip } from "./export_zip.ts";
import { chargeExport } from "./export_budget.ts";
import { clientIp } from "../http/client_ip.ts";
import { FilesPage } from "./files_page.tsx";
import { matchesIfNoneMatch } from "../lib/etag.ts";

/**
 * A wiki's files under `/w/<id>/-/files`: the list and upload form, the upload (a form post,
 * or `fetch` from the editor's paste and drop, answered in JSON), and each file, served under
 * the wiki's access rules with its stored type, an ETag, and no way to run as a page.
 */
export function attachmentRoutes(deps: Deps): Hono {
  const app = new Hono();

  app.get("/w/:id/-/files", async (c) => {
    const view = await openSpace(deps, c, "read");
    const files = await listAttachments(deps.db, view.space.wiki.id);
    const usage = await attachmentUsage(deps, view.space.wiki.id);
    return c.html(
      <FilesPage {...view} files={files} usage={usage} uploaded={c.req.query("uploaded")} />,
    );
  });

  app.post("/w/:id/-/files", async (c) => {
    const view = await openSpace(deps, c, "write");
    const wikiId = view.space.wiki.id;
    const wantsJson = (c.req.header("accept") ?? "").includes("application/json");
    const form = await c.req.parseBody();
    const file = form.file;
    try {
      if (!(file instanceof File)) throw new AppError("bad_request", "Choose a file to upload");
      const saved = await saveAttachment(deps, {
        wikiId,
        fileName: file.name,
        bytes: new Uint8Array(await file.arrayBuffer()),
        accountId: view.account?.id ?? null,
      });
      if (wantsJson) return c.json(saved, 201);
      return c.redirect(`/w/${wikiId}/-/files?uploaded=${encodeURIComponent(saved.name)}`, 303);
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      if (wantsJson) return c.json({ error: error.detail }, error.status as 400);
      const files = await listAttachments(deps.db, wikiId);
      const usage = await attachmentUsage(deps, wikiId);
      return c.html(
        <FilesPage {...view} files={files} usage={usage} error={error.detail} />,
        error.status as 400,
      );
    }
  });

  app.get("/w/:id/-/files/:name", async (c) => {
    const { space } = await openSpace(deps, c, "read");
    const name = c.req.param("name");
    const file = await findAttachment(deps.db, space.wiki.id, name);
    if (!file) throw new AppError("not_found", `No file "${name}" in wiki "${space.wiki.id}"`);
    const etag = `"${file.sha256}"`;
    const headers: Record<string, string> = {
      "Content-Type": file.content_type,
      ETag: etag,
      // Private files are kept by this browser only, and checked again on each use.
      "Cache-Control": space.wiki.visibility === "public"
        ? "public, max-age=300"
        : "private, no-cache",
      "X-Content-Type-Options": "nosniff",
      // A file never runs as a page of this site, whatever it holds.
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      "Content-Disposition": file.content_type === "application/pdf"
        ? `inline; filename="${file.name}"`
        : "inline",
    };
    if (matchesIfNoneMatch(c.req.header("if-none-match"), etag)) return c.body(null, 304, headers);
    return c.body(file.bytes as Uint8Array<ArrayBuffer>, 200, headers);
  });

  // The whole wiki as a zip of markdown with its files; readers may export what they can read,
  // a few times an hour (an export reads every byte of the wiki).
  app.get("/w/:id/-/export", async (c) => {
    const { space, account } = await openSpace(deps, c, "read");
    await chargeExport(deps, account?.id ?? null, clientIp(c, deps.config));
    const zip = await exportWikiZip(deps, space.wiki.id);
    return c.body(zip, 200, {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="${space.wiki.id}.zip"`,
    });
  });

  app.onError(webErrorHandler(deps, { signInNext: true }));
  return app;
}
