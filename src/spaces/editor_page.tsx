import { Alert, CsrfField, Field, TextArea } from "../kit/web/form_kit.tsx";
import { DiffView } from "./diff_view.tsx";
import type { LineDiff } from "./line_diff.ts";
import { actionHref, pageHref, spaceHref, toolHref } from "../kit/web/space_urls.ts";
import { type SpaceView, WikiFrame } from "../kit/web/wiki_frame.tsx";
import { EDITOR_KEYS } from "../kit/web/shortcut_keys.ts";

/** Where an edit stands: what the form holds, and what the server found when it last posted. */
export type EditorState = {
  mode: "new" | "edit";
  /** The page's path when editing; what the Path field holds for a new page. */
  path: string;
  markdown: string;
  /** The revision the text started from (0: a new page): the save is refused if it moved on. */
  baseRevision: number;
  errors?: { path?: string | undefined; markdown?: string | undefined };
  alert?: string | undefined;
  notice?: string | undefined;
  /** Rendered markdown, after the no-script Preview button. */
  preview?: string | undefined;
  /** What someone else saved meanwhile (revision 0: the page was deleted). */
  conflict?: { revision: number; markdown: string; diff: LineDiff } | undefined;
};

/**
 * The editor: a path for a new page, the markdown, Save and Preview. The form carries the
 * base revision; on a conflict the user's text stays in the editor and the saved text and a
 * diff are shown under it. With script, `editor.js` keeps the preview beside the text up to
 * date each time typing pauses and `toolbar.js` shows the formatting toolbar and its
 * shortcuts; without it the Preview button posts the form and the page comes back with the
 * preview.
 */
export function EditorPage(props: SpaceView & EditorState) {
  const { wiki } = props.space;
  const editing = props.mode === "edit";
  const action = editing ? actionHref(wiki.id, "edit", props.path) : toolHref(wiki.id, "new");
  const cancel = editing ? pageHref(wiki.id, props.path) : spaceHref(wiki.id);
  const errors = props.errors ?? {};
  return (
    <WikiFrame
      {...props}
      title={editing ? `Edit ${props.path}` : "New page"}
      path={editing ? props.path : undefined}
      scripts={["editor.js", "draft.js", "toolbar.js", "attach.js", "wikilink.js", "visual.js"]}
    >
      <Alert message={props.alert} />
      {props.notice && <p class="notice" role="status">{props.notice}</p>}
      <div class="editing">
        <form
          method="post"
          action={action}
          class="editor"
          data-editor=""
          data-preview={toolHref(wiki.id, "preview")}
          data-files={toolHref(wiki.id, "files")}
          data-suggest={toolHref(wiki.id, "suggest")}
        >
          <CsrfField token={props.csrfToken} />
          <input type="hidden" name="base_revision" value={String(props.baseRevision)} />
          {editing ? <input type="hidden" name="path" value={props.path} /> : (
            <Field
              name="path"
              label="Path"
              required
              value={props.path}
              hint='Folders are separated by "/", e.g. Guides/Setup'
              error={errors.path}
            />
          )}
          <ModeChoice />
          <Toolbar />
          <TextArea
            name="markdown"
            label="Markdown"
            value={props.markdown}
            rows={20}
            class="code"
            hint="Start with a # heading: it is the page's title. [[Page name]] links a page and shows its title; [[Page name|a label]] shows the label"
            error={errors.markdown}
          />
          <EditorActions wikiId={wiki.id} cancel={cancel} />
        </form>
        <p id="preview-status" role="status" class="sr-only"></p>
        <section
          id="preview"
          aria-labelledby="preview-heading"
          hidden={props.preview === undefined}
        >
          <h2 id="preview-heading">Preview</h2>
          <div
            id="preview-body"
            class="prose"
            dangerouslySetInnerHTML={{ __html: props.preview ?? "" }}
          />
        </section>
      </div>
      {props.conflict && <Conflict conflict={props.conflict} />}
    </WikiFrame>
  );
}

/** On a conflict, the saved text and how the user's text differs from it. */
function Conflict({ conflict }: { conflict: NonNullable<EditorState["conflict"]> }) {
  return (
    <section aria-labelledby="conflict-heading" class="conflict">
      <h2 id="conflict-heading">
        {conflict.revision === 0
          ? "The page as it was (now deleted)"
          : `The saved text (revision ${conflict.revision})`}
      </h2>
      <TextArea
        name="saved-markdown"
        label={conflict.revision === 0
          ? "Text before it was deleted"
          : `Text of revision ${conflict.revision}`}
        value={conflict.markdown}
        rows={12}
        class="code"
        readonly
      />
      <h2>How your text differs from it</h2>
      <DiffView
        diff={conflict.diff}
        label="Differences between the saved text and yours"
      />
    </section>
  );
}

/** Save, Preview, Cancel and the link to upload a file, with the paste-and-drop status. */
function EditorActions(props: { wikiId: string; cancel: string }) {
  return (
    <>
      <div class="actions">
        <button type="submit" name="action" value="save">Save</button>
        <button type="submit" name="action" value="preview" class="secondary">Preview</button>
        <a href={props.cancel}>Cancel</a>
        <a href={toolHref(props.wikiId, "files")} target="_blank">Upload an image or file</a>
      </div>
      <p class="hint" id="attach-status" role="status">
        Paste or drop an image into the text to upload it.
      </p>
    </>
  );
}

/**
 * Visual or Source (the markdown), hidden until `visual.js` shows it (without script the text is edited as
 * markdown). Either way the form posts the markdown.
 */
function ModeChoice() {
  return (
    <fieldset class="editor-mode" data-editor-mode="" hidden>
      <legend>Edit as</legend>
      <label>
        <input type="radio" name="editor-mode" value="markdown" checked /> Source
      </label>
      <label>
        <input type="radio" name="editor-mode" value="visual" /> Visual
      </label>
      <span class="hint" role="status" data-mode-status=""></span>
    </fieldset>
  );
}

/**
 * The formatting toolbar, hidden until `toolbar.js` moves it above the text and shows it
 * (its buttons do nothing without script). "Image" opens the file picker whose file
 * `attach.js` uploads, as a pasted image is. The Shortcuts list names the editor's keys.
 */
function Toolbar() {
  const button = (format: string, label: string, keys?: string) => (
    <button
      type="button"
      class="secondary"
      data-format={format}
      aria-keyshortcuts={keys}
      title={keys ? `${label} (${keys.replaceAll("Control", "Ctrl")})` : label}
    >
      {label}
    </button>
  );
  return (
    <>
      <input type="file" id="attach-file" accept="image/*" aria-label="Image to upload" hidden />
      <div
        class="md-toolbar"
        role="toolbar"
        aria-label="Formatting"
        aria-controls="field-markdown"
        data-toolbar=""
        hidden
      >
        {button("heading", "Heading")}
        {button("bold", "Bold", "Control+B")}
        {button("italic", "Italic", "Control+I")}
        {button("link", "Link", "Control+K")}
        {button("code", "Code", "Control+E")}
        {button("list", "List")}
        {button("table", "Table")}
        {button("image", "Image")}
        <details class="shortcuts">
          <summary>Shortcuts</summary>
          <dl>
            {EDITOR_KEYS.map(({ keys, what }) => (
              <>
                <dt>
                  {keys.map((key, i) => (
                    <>
                      {i > 0 && "+"}
                      <kbd>{key}</kbd>
                    </>
                  ))}
                </dt>
                <dd>{what}</dd>
              </>
            ))}
          </dl>
        </details>
      </div>
    </>
  );
}
