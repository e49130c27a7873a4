import { pageHref } from "../kit/web/space_urls.ts";
import type { PageRatings, RatingComment } from "./store.ts";

/** Readers' answers to "Was this page helpful?", on the usage page. */
export function RatingsSection(
  props: { wikiId: string; counts: PageRatings[]; comments: RatingComment[] },
) {
  return (
    <section aria-labelledby="ratings-heading">
      <h2 id="ratings-heading">Was this page helpful? (readers)</h2>
      {props.counts.length === 0
        ? <p>No reader rated a page in this period.</p>
        : (
          <table class="ratings">
            <thead>
              <tr>
                <th scope="col">Page</th>
                <th scope="col">Yes</th>
                <th scope="col">No</th>
              </tr>
            </thead>
            <tbody>
              {props.counts.map((r) => (
                <tr>
                  <td>
                    <a href={pageHref(props.wikiId, r.path)}>{r.path}</a>
                  </td>
                  <td>{r.helpful}</td>
                  <td>{r.unhelpful}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      {props.comments.length > 0 && (
        <ul class="rating-comments">
          {props.comments.map((c) => (
            <li>
              <a href={pageHref(props.wikiId, c.path)}>{c.path}</a> ({c.helpful ? "yes" : "no"}):
              {" "}
              {c.comment}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
