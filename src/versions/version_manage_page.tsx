import { manages } from "../access/role.ts";
import { Alert, CsrfField, Field, PostButton } from "../kit/web/form_kit.tsx";
import { toolHref } from "../kit/web/space_urls.ts";
import { VersionSwitcher } from "../kit/web/version_switcher.tsx";
import { type SpaceView, WikiFrame } from "../kit/web/wiki_frame.tsx";
import { LATEST, type VersionList } from "./versions.ts";

type Listed = VersionList["versions"][number];

/** `/w/<id>@<name>`: a version's home. */
function versionHref(wikiId: string, name: string): string {
  return `/w/${wikiId}@${encodeURIComponent(name)}`;
}

/**
 * A space's versions (`/w/<id>/-/versions`): every reader sees them with links to read each;
 * owners and admins also publish the live pages as a version, choose the default, rename and
 * delete (those two on pages of their own, `RenameVersionPage` and `DeleteVersionPage`).
 */
export function VersionsPage(
  props: SpaceView & {
    list: VersionList;
    notice?: string | undefined;
    error?: string | undefined;
    name?: string | undefined;
  },
) {
  const { wiki, role } = props.space;
  const { list } = props;
  const owner = manages(role);
  const names = [...list.versions].reverse().map((v) => v.name);
  return (
    <WikiFrame {...props} title={`Versions of ${wiki.title}`}>
      <Alert message={props.error} />
      {props.notice && <p class="notice" role="status">{props.notice}</p>}
      <p>
        Reads that name no version (the web pages, search, assistants) get{" "}
        <strong>{list.default === LATEST ? "the live pages (latest)" : list.default}</strong>.
      </p>
      {list.versions.length > 0 && (
        <VersionSwitcher
          wikiId={wiki.id}
          versions={names}
          defaultName={list.default}
          current={list.default}
        />
      )}
      <table>
        <caption>Versions, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Version</th>
            <th scope="col">Pages</th>
            <th scope="col">Published</th>
            <th scope="col">From</th>
            <th scope="col">Read</th>
            {owner && <th scope="col">Change</th>}
          </tr>
        </thead>
        <tbody>
          {list.versions.map((v) => (
            <VersionRow wikiId={wiki.id} v={v} owner={owner} csrfToken={props.csrfToken} />
          ))}
          <tr>
            <td>
              <a href={`/w/${wiki.id}`}>latest</a>{" "}
              {list.default === LATEST && <strong class="default-mark">(default)</strong>}
            </td>
            <td>—</td>
            <td>—</td>
            <td>the live pages</td>
            <td>
              <a href={`/w/${wiki.id}/llms.txt`}>llms.txt</a>
            </td>
            {owner && (
              <td>
                {list.default !== LATEST && (
                  <PostButton
                    action={toolHref(wiki.id, "versions/default", { name: LATEST })}
                    label="Make default"
                    csrfToken={props.csrfToken}
                  />
                )}
              </td>
            )}
          </tr>
        </tbody>
      </table>
      {list.versions.length === 0 && <p class="hint">No version has been published yet.</p>}
      {owner ? <PublishForm {...props} /> : (
        <p class="hint">
          Owners and admins of this space publish, rename and delete versions and choose the
          default.
        </p>
      )}
    </WikiFrame>
  );
}

function VersionRow(props: { wikiId: string; v: Listed; owner: boolean; csrfToken: string }) {
  const { wikiId, v } = props;
  const q = { name: v.name };
  return (
    <tr>
      <td>
        <a href={versionHref(wikiId, v.name)}>{v.name}</a>{" "}
        {v.default && <strong class="default-mark">(default)</strong>}
      </td>
      <td>{v.pages}</td>
      <td>
        <time datetime={v.created_at}>{v.created_at.slice(0, 10)}</time>
      </td>
      <td>{v.source_ref ? <code>{v.source_ref}</code> : "published"}</td>
      <td>
        <a href={`${versionHref(wikiId, v.name)}/llms.txt`}>llms.txt</a>
        {" · "}
        <a href={`${versionHref(wikiId, v.name)}/-/export`}>zip</a>
      </td>
      {props.owner && (
        <td>
          <span class="actions">
            {!v.default && (
              <PostButton
                action={toolHref(wikiId, "versions/default", q)}
                label="Make default"
                csrfToken={props.csrfToken}
              />
            )}
            <a href={toolHref(wikiId, "versions/rename", q)}>Rename</a>
            <a href={toolHref(wikiId, "versions/delete", q)} class="danger">Delete</a>
          </span>
        </td>
      )}
    </tr>
  );
}

function PublishForm(props: SpaceView & { name?: string | undefined }) {
  const { wiki } = props.space;
  return (
    <form method="post" action={toolHref(wiki.id, "versions")}>
      <h2>Publish a version</h2>
      <CsrfField token={props.csrfToken} />
      <Field
        name="name"
        label="Version name"
        required
        autocomplete="off"
        value={props.name}
        hint="e.g. v2.1: letters, digits, ., _, + or -. The live pages as they are now become this version; it points at their revisions, nothing is copied"
      />
      <label>
        <input type="checkbox" name="default" value="yes" />{" "}
        Make it the default: reads that name no version get it
      </label>
      <button type="submit">Publish</button>
    </form>
  );
}

/** Renames a version (owners and admins). */
export function RenameVersionPage(
  props: SpaceView & { version: Listed; to?: string; error?: string | undefined },
) {
  const { wiki } = props.space;
  return (
    <WikiFrame {...props} title={`Rename version ${props.version.name}`}>
      <Alert message={props.error} />
      <p>
        Addresses and page ids that name <strong>{props.version.name}</strong>{" "}
        stop working: reads that name it get an error listing the versions there are.
      </p>
      <form method="post" action={toolHref(wiki.id, "versions/rename")}>
        <CsrfField token={props.csrfToken} />
        <input type="hidden" name="name" value={props.version.name} />
        <Field
          name="to"
          label="New name"
          required
          autocomplete="off"
          value={props.to ?? props.version.name}
        />
        <div class="actions">
          <button type="submit">Rename</button>
          <a href={toolHref(wiki.id, "versions")}>Cancel</a>
        </div>
      </form>
    </WikiFrame>
  );
}

/**
 * Confirms deleting a version (owners and admins). The default cannot be deleted: the page
 * says so instead of offering the button.
 */
export function DeleteVersionPage(
  props: SpaceView & { version: Listed; refusal?: string | undefined },
) {
  const { wiki } = props.space;
  const { version } = props;
  return (
    <WikiFrame {...props} title={`Delete version ${version.name}?`}>
      <Alert message={props.refusal} />
      {props.refusal
        ? (
          <p>
            <a href={toolHref(wiki.id, "versions")}>Back to the versions</a>
          </p>
        )
        : (
          <>
            <p>
              Version <strong>{version.name}</strong> ({version.pages}{" "}
              pages) will be gone: its addresses, page ids and citations stop working, and reads
              that name it get an error listing the versions left. The pages themselves stay, live
              and in the other versions. This cannot be undone.
            </p>
            <form method="post" action={toolHref(wiki.id, "versions/delete")}>
              <CsrfField token={props.csrfToken} />
              <input type="hidden" name="name" value={version.name} />
              <div class="actions">
                <button type="submit" class="danger">Delete version {version.name}</button>
                <a href={toolHref(wiki.id, "versions")}>Cancel</a>
              </div>
            </form>
          </>
        )}
    </WikiFrame>
  );
}
