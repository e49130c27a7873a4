import { Alert, CsrfField, Field } from "../kit/web/form_kit.tsx";
import type { PageRow } from "../db/page_row.ts";
import { actionHref, pageHref } from "../kit/web/space_urls.ts";
import { type SpaceView, WikiFrame } from "../kit/web/wiki_frame.tsx";

/** Asks for a page's new path; links to it follow unless the box is cleared. */
export function RenamePageForm(
  props: SpaceView & {
    page: PageRow;
    backlinks: number;
    newPath?: string;
    updateLinks?: boolean;
    error?: string | undefined;
    alert?: string | undefined;
  },
) {
  const { wiki } = props.space;
  const { page } = props;
  return (
    <WikiFrame {...props} title={`Rename ${page.path}`} path={page.path}>
      <Alert message={props.alert} />
      <form method="post" action={actionHref(wiki.id, "rename", page.path)}>
        <CsrfField token={props.csrfToken} />
        <input type="hidden" name="base_revision" value={String(page.revision)} />
        <Field
          name="new_path"
          label="New path"
          required
          value={props.newPath ?? page.path}
          hint='Folders are separated by "/", e.g. Guides/Setup'
          error={props.error}
        />
        <label class="check">
          <input
            type="checkbox"
            name="update_links"
            value="1"
            checked={props.updateLinks ?? true}
          />{" "}
          Update the links of{" "}
          {props.backlinks === 1 ? "the 1 page" : `the ${props.backlinks} pages`} that point here
        </label>
        <div class="actions">
          <button type="submit">Rename</button>
          <a href={pageHref(wiki.id, page.path)}>Cancel</a>
        </div>
      </form>
    </WikiFrame>
  );
}

/** Confirms deleting a page: what happens to its history and to the links that point at it. */
export function DeletePageForm(
  props: SpaceView & { page: PageRow; backlinks: number; alert?: string | undefined },
) {
  const { wiki } = props.space;
  const { page } = props;
  return (
    <WikiFrame {...props} title={`Delete ${page.path}?`} path={page.path}>
      <Alert message={props.alert} />
      <p>
        “{page.title}” will no longer be in the wiki, in search or for assistants. Its history is
        kept, so it can be written again from its last revision.
        {props.backlinks > 0 &&
          ` ${
            props.backlinks === 1 ? "1 page links" : `${props.backlinks} pages link`
          } to it: those links will show as missing.`}
      </p>
      <form method="post" action={actionHref(wiki.id, "delete", page.path)}>
        <CsrfField token={props.csrfToken} />
        <input type="hidden" name="base_revision" value={String(page.revision)} />
        <div class="actions">
          <button type="submit" class="danger">Delete page</button>
          <a href={pageHref(wiki.id, page.path)}>Cancel</a>
        </div>
      </form>
    </WikiFrame>
  );
}
