import { type Child, Fragment } from "hono/jsx";

/**
 * The form and table pieces every page of the web app shares, so a label, its hint and its
 * error are always tied to the control the same way (`aria-describedby`, `aria-invalid`),
 * and every "revoke" button is a small POST form with the CSRF token.
 */

/** The hidden CSRF field every form of the web app carries. */
export function CsrfField(props: { token: string }) {
  return <input type="hidden" name="_csrf" value={props.token} />;
}

/** A message at the top of a form that was not accepted, announced when it appears. */
export function Alert(props: { message: string | undefined }) {
  return props.message ? <p class="alert" role="alert">{props.message}</p> : null;
}

/** What a control needs: its id, and the `aria-*` attributes pointing at its hint and error. */
type Described = {
  id: string;
  aria: { "aria-invalid"?: "true" | undefined; "aria-describedby"?: string | undefined };
};

/**
 * A label, an optional hint above the control and an optional error below it; `control`
 * receives the ids to put on the control so screen readers announce hint and error with it.
 */
export function FieldFrame(props: {
  name: string;
  id?: string | undefined;
  label: string;
  hint?: string | undefined;
  error?: string | undefined;
  control: (described: Described) => Child;
}) {
  const id = props.id ?? `field-${props.name}`;
  const described = [props.hint && `${id}-hint`, props.error && `${id}-error`]
    .filter(Boolean).join(" ");
  return (
    <div>
      <label for={id}>{props.label}</label>
      {props.hint && <p class="hint" id={`${id}-hint`}>{props.hint}</p>}
      {props.control({
        id,
        aria: {
          "aria-invalid": props.error ? "true" : undefined,
          "aria-describedby": described || undefined,
        },
      })}
      {props.error && <p class="error" id={`${id}-error`}>{props.error}</p>}
    </div>
  );
}

/** A labelled input with its hint and error. */
export function Field(props: {
  name: string;
  /** The control's id when `field-<name>` is taken on the page (two forms, one field name). */
  id?: string;
  label: string;
  type?: string;
  value?: string;
  error?: string | undefined;
  hint?: string;
  autocomplete?: string;
  required?: boolean;
}) {
  return (
    <FieldFrame
      {...props}
      control={(d) => (
        <input
          id={d.id}
          name={props.name}
          type={props.type ?? "text"}
          value={props.value}
          autocomplete={props.autocomplete}
          required={props.required}
          {...d.aria}
        />
      )}
    />
  );
}

/** A labelled choice with its hint and error; the option whose value is `value` is selected. */
export function SelectField(props: {
  name: string;
  id?: string;
  label: string;
  options: { value: string; label: string }[];
  value?: string | undefined;
  error?: string | undefined;
  hint?: string;
}) {
  return (
    <FieldFrame
      {...props}
      control={(d) => (
        <select id={d.id} name={props.name} {...d.aria}>
          {props.options.map((o) => (
            <option value={o.value} selected={o.value === props.value}>{o.label}</option>
          ))}
        </select>
      )}
    />
  );
}

/**
 * A labelled multi-line field with its hint and error. The value goes in as text (escaped),
 * never as markup.
 */
export function TextArea(props: {
  name: string;
  label: string;
  value?: string;
  hint?: string;
  error?: string | undefined;
  rows?: number;
  required?: boolean;
  readonly?: boolean;
  class?: string;
}) {
  return (
    <FieldFrame
      {...props}
      control={(d) => (
        <textarea
          id={d.id}
          name={props.readonly ? undefined : props.name}
          rows={props.rows ?? 6}
          class={props.class}
          required={props.required}
          readonly={props.readonly}
          spellcheck={props.class === "code" ? false : undefined}
          {...d.aria}
        >
          {
            // A textarea drops one leading newline; keep the text's own.
            props.value?.startsWith("\n") ? `\n${props.value}` : props.value
          }
        </textarea>
      )}
    />
  );
}

/** A one-button POST form (revoke, disconnect, remove), carrying the CSRF token. */
export function PostButton(props: { action: string; label: string; csrfToken: string }) {
  return (
    <form class="inline" method="post" action={props.action}>
      <CsrfField token={props.csrfToken} />
      <button type="submit">{props.label}</button>
    </form>
  );
}

/**
 * A table of things the account can revoke: one row per item, its cells, and a last column
 * with a `PostButton` (or a word such as "revoked" when there is nothing left to do).
 */
export function RevokeTable(props: {
  headers: string[];
  rows: { cells: Child[]; action: { href: string; label: string } | string }[];
  csrfToken: string;
}) {
  return (
    <table>
      <thead>
        <tr>
          {props.headers.map((h) => (
            <Fragment key={h}>
              <th>{h}</th>
            </Fragment>
          ))}
          <th>
            <span class="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {props.rows.map((row) => (
          <tr>
            {row.cells.map((cell, i) => (
              <Fragment key={String(i)}>
                <td>{cell}</td>
              </Fragment>
            ))}
            <td>
              {typeof row.action === "string" ? row.action : (
                <PostButton
                  action={row.action.href}
                  label={row.action.label}
                  csrfToken={props.csrfToken}
                />
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * A search form: a GET form to `action`, results as you type from `suggest`
 * (`/assets/search.js`), `/` to focus it (`/assets/nav.js`), both loaded here; `children` adds
 * buttons after Search. One form for a wiki's bar and for the search over all of a person's
 * spaces; without script it is a plain GET form.
 */
export function SearchForm(props: {
  action: string;
  suggest: string;
  label: string;
  placeholder?: string;
  query?: string;
  children?: Child;
}) {
  return (
    <form role="search" method="get" action={props.action} class="wiki-search">
      <label for="wiki-search" class="sr-only">{props.label}</label>
      <input
        id="wiki-search"
        type="search"
        name="q"
        value={props.query}
        autocomplete="off"
        placeholder={props.placeholder ?? props.label}
        data-suggest={props.suggest}
      />
      <button type="submit">Search</button>
      {props.children}
      <script src="/assets/nav.js" defer></script>
      <script type="module" src="/assets/search.js"></script>
    </form>
  );
}
