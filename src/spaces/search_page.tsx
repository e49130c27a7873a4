import { Alert } from "../web/form_kit.tsx";
import { Fragment } from "hono/jsx";
import type { SearchOutput } from "../search/search_wikis.ts";
import { toolHref } from "./space_urls.ts";
import { type SpaceView, WikiFrame } from "./wiki_frame.tsx";

/** A search of one wiki: the results (title, path, the passage that matched), or the form alone. */
export function SearchPage(
  props: SpaceView & {
    query: string;
    results: (SearchOutput["results"][number] & { href: string })[] | null;
    nextCursor: string | null;
    error?: string;
  },
) {
  const { wiki } = props.space;
  const title = props.query ? `Search: ${props.query}` : "Search";
  return (
    <WikiFrame {...props} title={title} query={props.query}>
      <Alert message={props.error} />
      {props.results && (
        <section aria-labelledby="results-heading">
          <h2 id="results-heading">
            {props.results.length === 0
              ? "No pages found"
              : `Results${props.nextCursor ? "" : ` (${props.results.length})`}`}
          </h2>
          {props.results.length === 0 && <p class="hint">Try other words, or fewer of them.</p>}
          <ol class="results">
            {props.results.map((r) => (
              <li>
                <a href={r.href}>{r.title}</a>
                <p class="hint">
                  <code>{r.page}</code>
                  {r.section && <>{" › "}{r.section}</>}
                </p>
                <p>
                  <Snippet text={r.snippet} matches={r.matches} />
                </p>
              </li>
            ))}
          </ol>
          {props.nextCursor && (
            <p>
              <a href={toolHref(wiki.id, "search", { q: props.query, cursor: props.nextCursor })}>
                More results
              </a>
            </p>
          )}
        </section>
      )}
    </WikiFrame>
  );
}

/** A snippet with its matched words (offsets from search) as `<mark>`, everything else as text. */
function Snippet(props: { text: string; matches: { start: number; end: number }[] }) {
  const parts: { text: string; mark: boolean }[] = [];
  let at = 0;
  for (const m of props.matches) {
    parts.push({ text: props.text.slice(at, m.start), mark: false });
    parts.push({ text: props.text.slice(m.start, m.end), mark: true });
    at = m.end;
  }
  parts.push({ text: props.text.slice(at), mark: false });
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={String(i)}>{part.mark ? <mark>{part.text}</mark> : part.text}</Fragment>
      ))}
    </>
  );
}
