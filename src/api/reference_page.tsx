import { raw } from "hono/html";
import { exampleOf } from "./openapi_examples.ts";
import {
  type Operation,
  operationAnchor,
  OperationSection,
  type Spec,
  Text,
} from "./reference_operation.tsx";

const CSS = `
*{box-sizing:border-box}
body{margin:0;font:1rem/1.5 system-ui,sans-serif;color:#1b1b1b;background:#fff}
.frame{display:grid;grid-template-columns:minmax(0,1fr);max-width:80rem;margin:0 auto;padding:0 1rem}
header.top{display:flex;flex-wrap:wrap;gap:0.25rem 1rem;align-items:baseline;max-width:80rem;margin:0 auto;padding:0.75rem 1rem;border-bottom:1px solid #ddd}
header.top .brand{font-weight:700;text-decoration:none}
nav.ops{font-size:0.95rem}
nav.ops ul{list-style:none;padding-left:0;margin:0.25rem 0 0.75rem}
nav.ops li{margin:0.15rem 0;overflow-wrap:anywhere}
nav.ops h2{font-size:1rem;margin:1rem 0 0}
main{min-width:0;max-width:56rem}
a{color:#0645ad}
:focus-visible{outline:3px solid #f5a623;outline-offset:2px}
pre{background:#f5f5f5;padding:0.6rem;overflow-x:auto;font-size:0.88rem;line-height:1.4;margin:0.25rem 0 0.75rem}
code{font-family:ui-monospace,Menlo,Consolas,monospace}
h2.tag{border-bottom:2px solid #ddd;padding-bottom:0.25rem;margin-top:2.5rem}
article.op{border-top:1px solid #ddd;padding:0.5rem 0 1rem;scroll-margin-top:0.5rem}
article.op h3{font-size:1.1rem;overflow-wrap:anywhere;margin:0.75rem 0 0.25rem}
article.op h4{font-size:1rem;margin:1rem 0 0.25rem}
.method{display:inline-block;min-width:4.2rem;text-align:center;font:700 0.8rem/1.6 ui-monospace,monospace;border-radius:4px;color:#fff;background:#1b6f3a}
.method.post{background:#0645ad}.method.put{background:#8a5a00}.method.delete{background:#b00020}
nav.ops .method{min-width:3.6rem;font-size:0.7rem}
.summary{font-weight:600;margin:0.25rem 0}
.auth,.errors,.hint{color:#555;font-size:0.92rem}
.req{margin-left:0.4rem;font-size:0.75rem;color:#b00020}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:0.92rem;margin:0.25rem 0 0.5rem}
caption{text-align:left;font-weight:600;padding:0.25rem 0}
th,td{text-align:left;vertical-align:top;padding:0.25rem 0.5rem 0.25rem 0;border-bottom:1px solid #eee}
td:first-child{white-space:nowrap}
details.response{margin:0.25rem 0}
details.response summary{cursor:pointer}
.example-label{margin:0.5rem 0 0;font-weight:600;font-size:0.92rem}
abbr{text-decoration:underline dotted}
form.try,form.token{border:1px solid #ccc;border-radius:6px;padding:0.5rem 1rem 1rem;margin-top:1rem;background:#fafafa}
form.try h4{margin-top:0.25rem}
label{display:block;font-weight:600;margin-top:0.5rem}
input,textarea,button{font:inherit;max-width:100%}
input,textarea{display:block;width:100%;font-weight:400;padding:0.35rem 0.5rem;border:1px solid #767676;border-radius:4px;background:#fff;color:inherit}
textarea.code{font:0.88rem/1.4 ui-monospace,Menlo,Consolas,monospace}
button{margin-top:0.75rem;padding:0.35rem 0.8rem;border:1px solid #0645ad;background:#0645ad;color:#fff;border-radius:4px;cursor:pointer}
button.secondary{background:transparent;color:#0645ad}
.result .status{font-weight:700;margin:0.75rem 0 0}
.result .status.bad{color:#b00020}
@media (max-width:899px){
nav.ops ul{display:none}
nav.ops{display:flex;flex-wrap:wrap;gap:0 1rem;border-bottom:1px solid #ddd;padding-bottom:0.5rem}
nav.ops h2{margin:0.5rem 0 0}
}
@media (min-width:900px){
.frame{grid-template-columns:16rem minmax(0,1fr);gap:0 2rem}
nav.ops{position:sticky;top:0;max-height:100vh;overflow:auto;padding:0.5rem 1rem 1rem 0;border-right:1px solid #eee;align-self:start}
}
@media (prefers-color-scheme:dark){
:root{color-scheme:dark}
body{color:#e4e4e4;background:#16181c}
a,button.secondary{color:#8ab4f8}
header.top,h2.tag,article.op,th,td,nav.ops{border-color:#3a3d42}
pre{background:#24272c}
.auth,.errors,.hint{color:#a8a8a8}
.req,.result .status.bad{color:#ff8a80}
form.try,form.token{background:#1e2025;border-color:#3a3d42}
input,textarea{background:#16181c;border-color:#8a8a8a}
button{background:#3b6fd6;border-color:#3b6fd6}
button.secondary{background:transparent;border-color:#8ab4f8}
.method{background:#1f7a44}.method.post{background:#3b6fd6}.method.put{background:#9a6a10}.method.delete{background:#c62c3f}
}
`;

type Entry = { method: string; path: string; op: Operation; anchor: string };

/** The operations of the document by tag, in the document's order (untagged ones last). */
function operationsByTag(spec: Spec): Map<string, Entry[]> {
  const groups = new Map<string, Entry[]>();
  for (const [path, ops] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const tag = op.tags?.[0] ?? "Other";
      const entry = { method, path, op, anchor: operationAnchor(method, path, op) };
      groups.set(tag, [...(groups.get(tag) ?? []), entry]);
    }
  }
  return groups;
}

const slug = (tag: string) => `tag-${tag.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;

/** The side list of operations, by tag. */
function OperationsNav({ groups }: { groups: Map<string, Entry[]> }) {
  return (
    <nav class="ops" aria-label="Operations">
      <h2>
        <a href="#authentication">Authentication</a>
      </h2>
      <h2>
        <a href="#errors">Errors and limits</a>
      </h2>
      {[...groups].map(([tag, entries]) => (
        <>
          <h2>
            <a href={`#${slug(tag)}`}>{tag}</a>
          </h2>
          <ul>
            {entries.map((e) => (
              <li>
                <a href={`#${e.anchor}`}>
                  <span class={`method ${e.method}`}>{e.method.toUpperCase()}</span>{" "}
                  <Text text={e.op.summary ?? e.path} />
                </a>
              </li>
            ))}
          </ul>
        </>
      ))}
    </nav>
  );
}

/** How to authenticate, with the try-it token form (shown by the script). */
function Authentication({ base }: { base: string }) {
  return (
    <section id="authentication">
      <h2>Authentication</h2>
      <p>
        Public wikis are read without a credential. Your spaces need an{" "}
        <strong>account token</strong> (<code>wk_acct_…</code>): make one on{" "}
        <a href="/account/tokens">your tokens page</a> and send it in the <code>Authorization</code>
        {" "}
        header:
      </p>
      <pre
        tabindex={0}
      ><code>{`curl -H "Authorization: Bearer $WIKI_TOKEN" '${base}/spaces'`}</code></pre>
      <p>
        A token acts as you, limited to the scopes you gave it. Space tokens (made for one space)
        work on MCP only; the REST API answers 403 to them. A missing or unknown token is a 401.
      </p>
      <form class="token" hidden>
        <label>
          Token for “Try it”
          <input
            type="password"
            name="token"
            autocomplete="off"
            placeholder="wk_acct_…"
            spellcheck={false}
          />
        </label>
        <p class="hint">
          Kept in this tab only (session storage) and sent only to this site, in the Authorization
          header of the requests you make below.
        </p>
        <button type="submit">Use token</button>{" "}
        <button type="button" class="secondary" data-forget>Forget token</button>
        <p class="hint" data-token-state aria-live="polite"></p>
      </form>
    </section>
  );
}

/** The problem+json every error is, with an example, and the budget headers. */
function ErrorsAndLimits({ spec }: { spec: Spec }) {
  // The document's Problem schema, with the values a missing page gives.
  const problem = {
    ...(exampleOf(spec, { $ref: "#/components/schemas/Problem" }) as object),
    type: "about:blank",
    title: "Not Found",
    status: 404,
    detail: 'Page "Guides/Setup" not found in wiki "docs"',
    code: "page_not_found",
  };
  return (
    <section id="errors">
      <h2>Errors and limits</h2>
      <p>
        Every error is <code>application/problem+json</code> (RFC 9457) with a stable{" "}
        <code>code</code> and the request id, for example:
      </p>
      <pre tabindex={0}><code>{JSON.stringify(problem, null, 2)}</code></pre>
      <p>
        Every response carries the request budget in <code>RateLimit</code> and{" "}
        <code>RateLimit-Policy</code>; a 429 or 503 says when to retry in <code>Retry-After</code>.
      </p>
    </section>
  );
}

/**
 * The API reference at `/api/v1/docs`, rendered from the OpenAPI document: operations grouped
 * by tag, each with parameters, request body, an example request, response examples and a
 * try-it form. It reads fully without JavaScript; `/assets/api_try.js` (no inline script,
 * the page's CSP forbids one) shows the try-it forms and sends them with the pasted token.
 */
export function ApiReferencePage(props: { spec: Spec }) {
  const { spec } = props;
  const base = spec.servers?.[0]?.url ?? "/api/v1";
  const groups = operationsByTag(spec);
  return (
    <>
      {raw("<!DOCTYPE html>")}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <meta name="color-scheme" content="light dark" />
          <title>{spec.info.title}</title>
          <link rel="icon" href="/assets/favicon.svg" type="image/svg+xml" />
          <style dangerouslySetInnerHTML={{ __html: CSS }} />
          <script src="/assets/api_try.js" defer></script>
        </head>
        <body>
          <header class="top">
            <a href="/" class="brand">Wiki</a>
            <span>REST API reference</span>
            <a href="openapi.json">openapi.json</a>
            <a href="/account/tokens">Your tokens</a>
          </header>
          <div class="frame">
            <OperationsNav groups={groups} />
            <main>
              <h1>{spec.info.title}</h1>
              <p>
                <Text text={spec.info.description} />
              </p>
              <p>
                Base URL: <code>{base}</code>. The machine-readable document is{" "}
                <a href="openapi.json">openapi.json</a> (OpenAPI 3.1, version {spec.info.version}).
              </p>
              <Authentication base={base} />
              <ErrorsAndLimits spec={spec} />
              {[...groups].map(([tag, entries]) => (
                <section>
                  <h2 class="tag" id={slug(tag)}>{tag}</h2>
                  {entries.map((e) => (
                    <OperationSection
                      spec={spec}
                      method={e.method}
                      path={e.path}
                      op={e.op}
                      base={base}
                    />
                  ))}
                </section>
              ))}
            </main>
          </div>
        </body>
      </html>
    </>
  );
}
