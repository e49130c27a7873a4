import type { Role, TeamRow } from "../teams/store.ts";
import { CreateTeamForm } from "../teams/team_pages.tsx";
import { Alert, CsrfField, Field, Layout, type PageContext } from "../web/layout.tsx";
import type { WikiSummaryRow } from "../wikis/store.ts";
import type { FieldErrors } from "./sign_in.ts";

/** The sign-up form, with what was typed (never the password) and its errors. */
export function SignUpPage(
  props: PageContext & {
    values?: { email?: string; name?: string };
    errors?: FieldErrors;
    next?: string | undefined;
  },
) {
  const errors = props.errors ?? {};
  return (
    <Layout title="Create an account" account={props.account} csrfToken={props.csrfToken}>
      <Alert
        message={Object.keys(errors).length > 0 ? "Please correct the fields below" : undefined}
      />
      <form method="post" action="/signup">
        <CsrfField token={props.csrfToken} />
        <NextField next={props.next} />
        <Field
          name="email"
          label="Email"
          type="email"
          autocomplete="email"
          required
          value={props.values?.email}
          error={errors.email}
        />
        <Field
          name="name"
          label="Name"
          autocomplete="name"
          hint="How teammates see you; optional"
          value={props.values?.name}
          error={errors.name}
        />
        <Field
          name="password"
          label="Password"
          type="password"
          autocomplete="new-password"
          required
          hint="At least 10 characters, not your email address"
          error={errors.password}
        />
        <button type="submit">Create account</button>
      </form>
      <p>
        Have an account? <a href="/signin">Sign in</a>
      </p>
    </Layout>
  );
}

/** The sign-in form; `error` is shown above it. */
export function SignInPage(
  props: PageContext & { email?: string; error?: string; next?: string | undefined },
) {
  return (
    <Layout title="Sign in" account={props.account} csrfToken={props.csrfToken}>
      <Alert message={props.error} />
      <form method="post" action="/signin">
        <CsrfField token={props.csrfToken} />
        <NextField next={props.next} />
        <Field
          name="email"
          label="Email"
          type="email"
          autocomplete="username"
          required
          value={props.email}
        />
        <Field
          name="password"
          label="Password"
          type="password"
          autocomplete="current-password"
          required
        />
        <button type="submit">Sign in</button>
      </form>
      <p>
        No account yet?{" "}
        <a href={props.next ? `/signup?next=${encodeURIComponent(props.next)}` : "/signup"}>
          Create one
        </a>
      </p>
    </Layout>
  );
}

/** The signed-in account: who it is, its spaces and its teams, and a form for a new team. */
export function AccountPage(
  props: PageContext & {
    spaces: (WikiSummaryRow & { role: Role })[];
    teams: (TeamRow & { role: Role })[];
  },
) {
  const account = props.account!;
  return (
    <Layout title="Your account" account={account} csrfToken={props.csrfToken}>
      <dl>
        <dt>Email</dt>
        <dd>{account.email}</dd>
        <dt>Name</dt>
        <dd>{account.name}</dd>
      </dl>
      <h2>Spaces</h2>
      {props.spaces.length === 0 ? <p>No spaces yet.</p> : (
        <ul>
          {props.spaces.map((s) => (
            <li>
              <a href={`/w/${s.id}`}>{s.title}</a> ({s.id}, {s.role}, {s.page_count}{" "}
              {s.page_count === 1 ? "page" : "pages"})
            </li>
          ))}
        </ul>
      )}
      <h2>Teams</h2>
      {props.teams.length === 0 ? <p>No teams yet.</p> : (
        <ul>
          {props.teams.map((t) => (
            <li>
              <a href={`/teams/${t.id}`}>{t.name}</a> ({t.role})
            </li>
          ))}
        </ul>
      )}
      <h2>Create a team</h2>
      <CreateTeamForm csrfToken={props.csrfToken} />
      <h2>Apps</h2>
      <p>
        <a href="/account/apps">Connected apps</a>: the assistants you signed in with OAuth.
      </p>
    </Layout>
  );
}

/** Where the form goes after success (e.g. back to an app's authorization request). */
function NextField(props: { next?: string | undefined }) {
  return props.next ? <input type="hidden" name="next" value={props.next} /> : null;
}

/** A page for a request that failed: its status as title and a safe message. */
export function ErrorPage(props: PageContext & { title: string; message: string }) {
  return (
    <Layout title={props.title} account={props.account} csrfToken={props.csrfToken}>
      <p role="alert">{props.message}</p>
      <p>
        <a href={props.account ? "/account" : "/signin"}>
          {props.account ? "Back to your account" : "Sign in"}
        </a>
      </p>
    </Layout>
  );
}
