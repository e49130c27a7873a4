import { CsrfField } from "../kit/web/form_kit.tsx";
import { toolHref } from "../kit/web/space_urls.ts";

/**
 * "Was this page helpful?" under a page: yes or no, with an optional comment (a plain form;
 * it works without script). What readers say shows on the space's usage page.
 */
export function HelpfulForm(props: { wikiId: string; path: string; csrfToken: string }) {
  return (
    <form method="post" action={toolHref(props.wikiId, "helpful")} class="helpful">
      <CsrfField token={props.csrfToken} />
      <input type="hidden" name="path" value={props.path} />
      <fieldset>
        <legend>Was this page helpful?</legend>
        <label for="helpful-comment">A comment for the authors (optional)</label>
        <textarea id="helpful-comment" name="comment" rows={2} maxlength={1000}></textarea>
        <p>
          <button type="submit" name="helpful" value="yes">Yes</button>{" "}
          <button type="submit" name="helpful" value="no">No</button>
        </p>
      </fieldset>
    </form>
  );
}
