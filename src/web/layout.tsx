import { raw } from "hono/html";
import type { Child } from "hono/jsx";
import type { AccountRow } from "../accounts/store.ts";

const CSS = `
*{box-sizing:border-box}
body{margin:0;font:1rem/1.5 system-ui,sans-serif;color:#1b1b1b;background:#fff}
header,main{max-width:42rem;margin:0 auto;padding:0.75rem 1rem}
header{display:flex;flex-wrap:wrap;gap:0.5rem 1rem;align-items:center;border-bottom:1px solid #ddd}
header nav{margin-left:auto;display:flex;gap:1rem;align-items:center}
a{color:#0645ad}
label{display:block;font-weight:600;margin-top:1rem}
input,select,button{font:inherit;padding:0.4rem 0.6rem;max-width:100%}
input:not([type=hidden]),select{display:block;width:100%;border:1px solid #767676;border-radius:4px}
button{margin-top:1rem;border:1px solid #0645ad;background:#0645ad;color:#fff;border-radius:4px}
form.inline{display:inline}
form.inline button{margin:0;padding:0.1rem 0.5rem;background:#fff;color:#0645ad}
.hint{color:#555;font-size:0.9rem;margin:0.25rem 0 0}
.error{color:#b00020;margin:0.25rem 0 0}
.alert{border:2px solid #b00020;padding:0.5rem 1rem;border-radius:4px}
table{border-collapse:collapse;width:100%}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
th,td{text-align:left;padding:0.3rem 0.5rem 0.3rem 0;border-bottom:1px solid #eee}
`;

/** What every page needs: its title, who is signed in, and the token its forms carry. */
export type PageContext = { account: AccountRow | null; csrfToken: string };

/**
 * The page frame of the web app: a header with the sign-in state (and a sign-out button),
 * then `main`. One column, readable on a phone.
 */
export function Layout(
  props: PageContext & { title: string; children?: Child },
) {
  return (
    <>
      {raw("<!DOCTYPE html>")}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>{props.title} · Wiki</title>
          <style dangerouslySetInnerHTML={{ __html: CSS }} />
        </head>
        <body>
          <header>
            <a href="/account">Wiki</a>
            <nav aria-label="Account">
              {props.account
                ? (
                  <>
                    <span>
                      Signed in as{" "}
                      <a href="/account">{props.account.name || props.account.email}</a>
                    </span>
                    <form class="inline" method="post" action="/signout">
                      <CsrfField token={props.csrfToken} />
                      <button type="submit">Sign out</button>
                    </form>
                  </>
                )
                : (
                  <>
                    <a href="/signin">Sign in</a>
                    <a href="/signup">Sign up</a>
                  </>
                )}
            </nav>
          </header>
          <main>
            <h1>{props.title}</h1>
            {props.children}
          </main>
        </body>
      </html>
    </>
  );
}

/** The hidden CSRF field every form of the web app carries. */
export function CsrfField(props: { token: string }) {
  return <input type="hidden" name="_csrf" value={props.token} />;
}

/**
 * A labelled input with its hint and error, tied to it with `aria-describedby` and
 * `aria-invalid` so screen readers announce them with the field.
 */
export function Field(props: {
  name: string;
  label: string;
  type?: string;
  value?: string;
  error?: string | undefined;
  hint?: string;
  autocomplete?: string;
  required?: boolean;
}) {
  const id = `field-${props.name}`;
  const described = [props.hint && `${id}-hint`, props.error && `${id}-error`]
    .filter(Boolean).join(" ");
  return (
    <div>
      <label for={id}>{props.label}</label>
      {props.hint && <p class="hint" id={`${id}-hint`}>{props.hint}</p>}
      <input
        id={id}
        name={props.name}
        type={props.type ?? "text"}
        value={props.value}
        autocomplete={props.autocomplete}
        required={props.required}
        aria-invalid={props.error ? "true" : undefined}
        aria-describedby={described || undefined}
      />
      {props.error && <p class="error" id={`${id}-error`}>{props.error}</p>}
    </div>
  );
}

/** A message at the top of a form that was not accepted, announced when it appears. */
export function Alert(props: { message: string | undefined }) {
  return props.message ? <p class="alert" role="alert">{props.message}</p> : null;
}
