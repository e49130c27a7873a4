import { Fragment } from "hono/jsx";
import type { SearchOutput } from "./search_wikis.ts";
import { CodeSpans } from "../kit/web/code_spans.tsx";

/** A search result as the web pages show it: where it links, and its space's title if asked. */
export type ResultView = SearchOutput["results"][number] & { href: string; space?: string };

/**
 * Search results as a list: the page's title, its path and section, and the passage that
 * matched as plain text (`buildSnippet`, the same as MCP and REST give), its matched words
 * marked, its line breaks kept (a code block's lines, a table row, a list item each on a line of
 * its own). Results from several spaces name theirs.
 */
function SearchResults(props: { results: ResultView[] }) {
  return (
    <ol class="results">
      {props.results.map((r) => (
        <li>
          <a href={r.href}>{r.title}</a>
          <p class="hint">
            {r.space && <>{r.space}{" · "}</>}
            <code>{r.page}</code>
            {r.section && (
              <>
                {" › "}
                <CodeSpans text={r.section} />
              </>
            )}
          </p>
          <p class="snippet">
            <Snippet text={r.snippet} matches={r.matches} />
          </p>
        </li>
      ))}
    </ol>
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

/**
 * A search's results under their heading ("No pages found", or "Results" with their count
 * when they fit on one page), with a "More results" link to `moreHref` when there are more.
 */
export function ResultsSection(props: { results: ResultView[]; moreHref?: string }) {
  return (
    <section aria-labelledby="results-heading">
      <h2 id="results-heading">
        {props.results.length === 0
          ? "No pages found"
          : `Results${props.moreHref ? "" : ` (${props.results.length})`}`}
      </h2>
      {props.results.length === 0 && <p class="hint">Try other words, or fewer of them.</p>}
      <SearchResults results={props.results} />
      {props.moreHref && (
        <p>
          <a href={props.moreHref}>More results</a>
        </p>
      )}
    </section>
  );
}
