import { Alert, CsrfField, Field } from "../kit/web/form_kit.tsx";
import { Layout, type PageContext } from "../kit/web/layout.tsx";
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

/** Where the form goes after success (e.g. back to an app's authorization request). */
function NextField(props: { next?: string | undefined }) {
  return props.next ? <input type="hidden" name="next" value={props.next} /> : null;
}
