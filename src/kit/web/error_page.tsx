import type { Child } from "hono/jsx";
import { Layout, type PageContext } from "./layout.tsx";

/** A page for a request that failed: its status as title and a safe message. */
export function ErrorPage(
  props: PageContext & { title: string; message: string; signInNext?: string },
) {
  return (
    <Layout title={props.title} account={props.account} csrfToken={props.csrfToken}>
      <p role="alert">{linkPaths(props.message)}</p>
      <p>
        <a
          href={props.account
            ? "/account"
            : props.signInNext
            ? `/signin?next=${encodeURIComponent(props.signInNext)}`
            : "/signin"}
        >
          {props.account ? "Back to your account" : "Sign in"}
        </a>
      </p>
    </Layout>
  );
}

/** Pages that error messages name as where to look next (the web hints of `suggestions.ts`). */
const LINKED_PATHS = ["/llms.txt", "/account"];

/**
 * `message` with each page of `LINKED_PATHS` it names (as a word of its own) made a link; only
 * these, since a message may quote what the visitor typed.
 */
function linkPaths(message: string) {
  const pattern = new RegExp(
    `(?<=^|\\s)(${LINKED_PATHS.map((p) => p.replaceAll(".", "\\.")).join("|")})(?=[\\s.,;:?]|$)`,
  );
  // Hono's JSX would print a `key` as an attribute, so the parts are not built with `map`.
  const parts: Child[] = [];
  message.split(pattern).forEach((part, i) => parts.push(i % 2 === 1 ? linkTo(part) : part));
  return parts;
}

function linkTo(path: string) {
  return <a href={path}>{path}</a>;
}
