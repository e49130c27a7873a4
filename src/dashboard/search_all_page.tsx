import { Alert, SearchForm } from "../kit/web/form_kit.tsx";
import { Layout, type PageContext } from "../kit/web/layout.tsx";
import { ResultsSection, type ResultView } from "../search/search_results.tsx";

/**
 * The search form over every space of the signed-in person, with results as you type
 * (`/assets/search.js`) and `/` to focus it (`/assets/nav.js`); a GET form without them.
 */
export function SearchAllForm(props: { query?: string }) {
  return (
    <SearchForm
      action="/account/search"
      suggest="/account/search/suggest"
      label="Search all your spaces"
      query={props.query}
    />
  );
}

/** Search across all the person's spaces: each result names the space it comes from. */
export function SearchAllPage(
  props: PageContext & {
    query: string;
    spaceCount: number;
    results: ResultView[] | null;
    nextCursor: string | null;
    error?: string;
  },
) {
  const title = props.query ? `Search your spaces: ${props.query}` : "Search your spaces";
  return (
    <Layout title={title} account={props.account} csrfToken={props.csrfToken}>
      <SearchAllForm query={props.query} />
      <Alert message={props.error} />
      {props.spaceCount === 0 && (
        <p>
          You have no spaces yet: <a href="/account#new-space">create one</a>, or join a team.
        </p>
      )}
      {props.results && (
        <ResultsSection
          results={props.results}
          moreHref={props.nextCursor
            ? `/account/search?${new URLSearchParams({ q: props.query, cursor: props.nextCursor })}`
            : undefined}
        />
      )}
    </Layout>
  );
}
