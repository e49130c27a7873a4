import { type Context, Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import type {} from "../http/request_id.ts";
import { countLinks, MAX_LINKS } from "../markdown/links.ts";
import { cleanPath, pathKey } from "../markdown/paths.ts";
import { MAX_MARKDOWN_CHARS, writePage } from "../pages/write_page.ts";
import { EditorPage, type EditorState } from "./editor_page.tsx";
import { findPageRecord } from "./find_page_record.ts";
import { lineDiff } from "./line_diff.ts";
import { renderPage } from "./render_page.ts";
import { formMarkdown, formText, openSpace, revisionParam } from "../kit/web/space_context.ts";
import { actionHref, newPageHref, pageHref } from "../kit/web/space_urls.ts";
import type { SpaceView } from "../kit/web/wiki_frame.tsx";
import { selectPage, selectRevision } from "../pages/mod.ts";

/**
 * Writing pages: the editor for new and existing pages, its preview (a fragment for
 * `editor.js`, or the whole form again without script) and saving with conflict detection.
 */
export function editorRoutes(deps: Deps): Hono {
  const app = new Hono();

  app.get("/w/:id/-/new", async (c) => {
    const view = await openSpace(deps, c, "write");
    const id = view.space.wiki.id;
    const asked = c.req.query("path") ?? "";
    const path = cleanPath(asked);
    const record = path ? await findPageRecord(deps.db, id, path) : null;
    if (record?.kind === "page") return c.redirect(actionHref(id, "edit", record.page.path), 303);
    const state: EditorState = {
      mode: "new",
      path: path ?? asked,
      // Empty, not a heading made from the path: the person would only type it again.
      markdown: "",
      baseRevision: 0,
    };
    const revision = revisionParam(c.req.query("revision"));
    if (record?.kind === "deleted" && revision !== undefined) {
      const old = await selectRevision(deps.db, record.pageId, revision);
      if (!old) throw revisionNotFound(revision, path!);
      state.markdown = old.markdown;
      state.notice =
        `The editor holds revision ${revision} of the deleted page: save to bring it back`;
    }
    return c.html(<EditorPage {...view} {...state} />);
  });

  app.get("/w/:id/-/edit/:path{.+}", async (c) => {
    const view = await openSpace(deps, c, "write");
    const id = view.space.wiki.id;
    const asked = c.req.param("path");
    const page = await pageAt(deps, id, asked);
    if (!page) return c.redirect(newPageHref(id, asked), 303);
    const state: EditorState = {
      mode: "edit",
      path: page.path,
      markdown: page.markdown,
      baseRevision: page.revision,
    };
    const revision = revisionParam(c.req.query("revision"));
    if (revision !== undefined && revision !== page.revision) {
      const old = await selectRevision(deps.db, page.id, revision);
      if (!old) throw revisionNotFound(revision, page.path);
      state.markdown = old.markdown;
      state.notice = `The editor holds revision ${revision}; saving makes it revision ${
        page.revision + 1
      }`;
    }
    return c.html(<EditorPage {...view} {...state} />);
  });

  app.post("/w/:id/-/new", (c) => save(c, deps, "new"));
  app.post("/w/:id/-/edit/:path{.+}", (c) => save(c, deps, "edit"));

  app.post("/w/:id/-/preview", async (c) => {
    const view = await openSpace(deps, c, "write");
    const form = await c.req.parseBody();
    const html = await renderPreview(
      deps,
      view.space.wiki.id,
      formText(form.path),
      formMarkdown(form.markdown),
    );
    return c.html(html);
  });

  return app;
}

/** The page at a path (any case, `_` for space), or null. */
async function pageAt(deps: Deps, wikiId: string, path: string) {
  const clean = cleanPath(path);
  return clean ? await selectPage(deps.db, wikiId, pathKey(clean)) : null;
}

/**
 * Saves the editor's text as the author, or shows it again: with a preview, with what is
 * wrong with it, or with the conflict when someone saved since the form's base revision.
 */
async function save(c: Context, deps: Deps, mode: EditorState["mode"]): Promise<Response> {
  const view = await openSpace(deps, c, "write");
  const id = view.space.wiki.id;
  const form = await c.req.parseBody();
  const state: EditorState = {
    mode,
    path: mode === "edit" ? c.req.param("path") ?? "" : formText(form.path).trim(),
    markdown: formMarkdown(form.markdown),
    baseRevision: revisionParam(form.base_revision, 0),
  };
  const show = (extra: Partial<EditorState>, status: ContentfulStatusCode) =>
    c.html(<EditorPage {...view} {...state} {...extra} />, status);
  if (mode === "new" && !state.path) {
    return show({ errors: { path: "Enter a path for the page, e.g. Guides/Setup" } }, 400);
  }
  if (form.action === "preview") {
    if (state.markdown.length > MAX_MARKDOWN_CHARS) {
      return show({ errors: { markdown: tooLongToPreview().detail } }, 413);
    }
    return show({ preview: await renderPreview(deps, id, state.path, state.markdown) }, 200);
  }
  try {
    const outcome = await writePage(deps, {
      wikiId: id,
      path: state.path,
      markdown: state.markdown,
      baseRevision: state.baseRevision,
    }, { author: view.account!.id, source: "web" });
    deps.log.info("page saved", {
      request_id: c.get("requestId"),
      wiki: id,
      page: outcome.page.path,
      status: outcome.status,
    });
    return c.redirect(pageHref(id, outcome.page.path), 303);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.code === "revision_conflict") return await showConflict(c, deps, view, state);
    if (error.code === "invalid_path") return show({ errors: { path: error.detail } }, 400);
    // A synced space: the text stays in the editor to copy into the repository.
    if (error.code === "space_synced") return show({ errors: { markdown: error.detail } }, 409);
    if (error.code === "invalid_markdown" || error.code === "payload_too_large") {
      return show({ errors: { markdown: error.detail } }, error.status as ContentfulStatusCode);
    }
    throw error;
  }
}

/**
 * The editor after a refused save: the user's text stays in it, rebased on the revision now
 * saved (so saving again is a deliberate overwrite), with that text and a diff below.
 */
async function showConflict(
  c: Context,
  deps: Deps,
  view: SpaceView,
  state: EditorState,
): Promise<Response> {
  const id = view.space.wiki.id;
  const current = await pageAt(deps, id, state.path);
  let saved = current?.markdown ?? "";
  if (!current && state.mode === "edit") {
    const record = await findPageRecord(deps.db, id, state.path);
    if (record?.kind === "deleted") {
      saved = (await selectRevision(deps.db, record.pageId, record.last.revision))?.markdown ?? "";
    }
  }
  const alert = !current
    ? "This page was deleted while you were editing it. Your text is still in the editor: saving creates the page again."
    : state.mode === "new"
    ? `A page "${current.path}" already exists (revision ${current.revision}). Your text is still in the editor and the page's text is below: saving replaces it with yours.`
    : `Someone saved this page while you were editing it: it is now at revision ${current.revision}. Your text is still in the editor; the saved text and how yours differs from it are below. Merge what you need, then save: that replaces revision ${current.revision}.`;
  return c.html(
    <EditorPage
      {...view}
      {...state}
      mode={current ? "edit" : state.mode}
      path={current?.path ?? state.path}
      baseRevision={current?.revision ?? 0}
      alert={alert}
      conflict={{
        revision: current?.revision ?? 0,
        markdown: saved,
        diff: lineDiff(saved, state.markdown),
      }}
    />,
    409,
  );
}

/**
 * The editor's text rendered as the page would be. Held to the caps of a save (characters,
 * links): `editor.js` asks for a preview each time typing pauses, and a text over
 * them could never be saved anyway.
 */
async function renderPreview(
  deps: Deps,
  wikiId: string,
  path: string,
  markdown: string,
): Promise<string> {
  if (markdown.length > MAX_MARKDOWN_CHARS) throw tooLongToPreview();
  const links = countLinks(markdown);
  if (links > MAX_LINKS) {
    throw new AppError(
      "payload_too_large",
      `The text has ${links} links: at most ${MAX_LINKS} per page, so it cannot be previewed or saved`,
    );
  }
  return await renderPage(deps.db, {
    wikiId,
    path: cleanPath(path) ?? "Preview",
    markdown,
    canCreate: true,
  });
}

function tooLongToPreview(): AppError {
  return new AppError(
    "payload_too_large",
    `The text is over ${MAX_MARKDOWN_CHARS} characters, the most a page may hold: it cannot be previewed or saved`,
  );
}

function revisionNotFound(revision: number, path: string): AppError {
  return new AppError("not_found", `Revision ${revision} of page "${path}" not found`);
}
