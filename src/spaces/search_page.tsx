import { Alert } from "../web/form_kit.tsx";
import { type ResultView, SearchResults } from "./search_results.tsx";
import { toolHref } from "./space_urls.ts";
import { type SpaceView, WikiFrame } from "./wiki_frame.tsx";

/** A search of one wiki: the results (title, path, the passage that matched), or the form alone. */
export function SearchPage(
  props: SpaceView & {
    query: string;
    results: ResultView[] | null;
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
          <SearchResults results={props.results} />
          {props.nextCursor && (
            <p>
              <a href={toolHref(wiki.id, "search", { q: props.query, cursor: props.nextCursor })}>
                More results
              </a>
            </p>
          )}
        </section>
      )}
      {props.account && props.query && (
        <p>
          <a href={`/account/search?q=${encodeURIComponent(props.query)}`}>
            Search all your spaces
          </a>{" "}
          for these words.
        </p>
      )}
    </WikiFrame>
  );
}
