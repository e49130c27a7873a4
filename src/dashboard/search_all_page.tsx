import { Alert } from "../web/form_kit.tsx";
import { Layout, type PageContext } from "../web/layout.tsx";
import { type ResultView, SearchResults } from "../spaces/search_results.tsx";

/**
 * The search form over every space of the signed-in person, with results as you type
 * (`/assets/search.js`) and `/` to focus it (`/assets/nav.js`); a GET form without them.
 */
export function SearchAllForm(props: { query?: string }) {
  return (
    <form role="search" method="get" action="/account/search" class="wiki-search">
      <label for="wiki-search" class="sr-only">Search all your spaces</label>
      <input
        id="wiki-search"
        type="search"
        name="q"
        value={props.query}
        autocomplete="off"
        placeholder="Search all your spaces"
        data-suggest="/account/search/suggest"
      />
      <button type="submit">Search</button>
      <script src="/assets/nav.js" defer></script>
      <script src="/assets/search.js" defer></script>
    </form>
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
              <a
                href={`/account/search?${new URLSearchParams({
                  q: props.query,
                  cursor: props.nextCursor,
                })}`}
              >
                More results
              </a>
            </p>
          )}
        </section>
      )}
    </Layout>
  );
}
