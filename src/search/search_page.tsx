import { Alert } from "../kit/web/form_kit.tsx";
import { ResultsSection, type ResultView } from "./search_results.tsx";
import { toolHref } from "../kit/web/space_urls.ts";
import { type SpaceView, WikiFrame } from "../kit/web/wiki_frame.tsx";

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
        <ResultsSection
          results={props.results}
          moreHref={props.nextCursor
            ? toolHref(wiki.id, "search", { q: props.query, cursor: props.nextCursor })
            : undefined}
        />
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
