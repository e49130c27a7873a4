import { type Context, Hono } from "hono";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { webErrorHandler } from "../kit/web/web_error_handler.tsx";
import { openSpace } from "../kit/web/space_context.ts";
import { attachmentUsage, saveAttachment } from "./attachments.ts";
import { fileHeaders } from "./file_headers.ts";
import { uploadFileNames } from "../spaces/upload_file_names.ts";
import { exportWikiZip } from "./export_zip.ts";
import { chargeExport } from "./export_budget.ts";
import { clientIp } from "../http/client_ip.ts";
import { FilesPage } from "./files_page.tsx";
import { matchesIfNoneMatch } from "../lib/etag.ts";
import {
  selectAttachment,
  selectAttachmentHeads,
  selectAttachmentVersion,
  selectVersionCounts,
} from "./mod.ts";

/**
 * A wiki's files under `/w/<id>/-/files`: the list and upload form, the upload (a form post,
 * or `fetch` from the editor's paste and drop, answered in JSON), and each file, served under
 * the wiki's access rules with its stored type, an ETag, and no way to run as a page.
 */
export function attachmentRoutes(deps: Deps): Hono {
  const app = new Hono();

  app.get("/w/:id/-/files", async (c) => {
    const view = await openSpace(deps, c, "read");
    const files = await selectAttachmentHeads(deps.db, view.space.wiki.id);
    const usage = await attachmentUsage(deps, view.space.wiki.id);
    const versions = await selectVersionCounts(deps.db, view.space.wiki.id);
    return c.html(
      <FilesPage
        {...view}
        files={files}
        usage={usage}
        versions={versions}
        uploaded={c.req.query("uploaded")}
        status={c.req.query("status")}
      />,
    );
  });

  app.post("/w/:id/-/files", (c) => uploadFile(deps, c));

  app.get("/w/:id/-/files/:name", async (c) => {
    const { space } = await openSpace(deps, c, "read");
    const name = c.req.param("name");
    // `?version=N`: an earlier version, kept when the file was replaced or deleted.
    const version = Number(c.req.query("version") ?? "");
    const file = Number.isInteger(version) && version >= 1 && version <= 2_147_483_647
      ? await selectAttachmentVersion(deps.db, space.wiki.id, name, version)
      : await selectAttachment(deps.db, space.wiki.id, name);
    if (!file) throw new AppError("not_found", `No file "${name}" in wiki "${space.wiki.id}"`);
    const headers = fileHeaders(file, space.wiki.visibility === "public");
    const etag = headers.ETag!;
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

/**
 * An upload from the files page's form (back to the list, or the page with the error) or from
 * the editor's paste and drop (`Accept: application/json`, answered in JSON).
 */
async function uploadFile(deps: Deps, c: Context) {
  const view = await openSpace(deps, c, "write");
  const wikiId = view.space.wiki.id;
  const wantsJson = (c.req.header("accept") ?? "").includes("application/json");
  const form = await c.req.parseBody();
  const file = form.file;
  try {
    if (!(file instanceof File)) throw new AppError("bad_request", "Choose a file to upload");
    // The name as sent: `formData()` cuts a quoted file name at its first `=`.
    const [sent] = uploadFileNames(
      await c.req.bytes(),
      c.req.header("content-type") ?? "",
      "file",
    );
    const saved = await saveAttachment(deps, {
      wikiId,
      fileName: sent || file.name,
      bytes: new Uint8Array(await file.arrayBuffer()),
      accountId: view.account?.id ?? null,
      replace: form.replace === "true",
    });
    if (wantsJson) {
      const { name, href, contentType, status } = saved;
      return c.json({ name, href, contentType, status }, 201);
    }
    const query = `uploaded=${encodeURIComponent(saved.name)}&status=${saved.status}`;
    return c.redirect(`/w/${wikiId}/-/files?${query}`, 303);
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    if (wantsJson) return c.json({ error: error.detail }, error.status as 400);
    const files = await selectAttachmentHeads(deps.db, wikiId);
    const usage = await attachmentUsage(deps, wikiId);
    const versions = await selectVersionCounts(deps.db, wikiId);
    return c.html(
      <FilesPage
        {...view}
        files={files}
        usage={usage}
        versions={versions}
        error={error.detail}
      />,
      error.status as 400,
    );
  }
}
