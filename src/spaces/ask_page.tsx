import { Fragment } from "hono/jsx";
import type { Answer } from "../ask/ask_schema.ts";
import { Alert } from "../web/form_kit.tsx";
import { newPageHref } from "./space_urls.ts";
import { type SpaceView, WikiFrame } from "./wiki_frame.tsx";

/** How sure the answer is, in words a reader takes in at a glance. */
const COVERAGE: Record<Answer["coverage"], string> = {
  supported: "Answered from the wiki",
  partial: "Partly answered: the wiki covers some of this",
  unsupported: "Not answered: the wiki does not cover this yet",
};

/**
 * Ask the wiki (`GET /w/<id>/-/ask?q=…`, a plain form: works without script): the answer
 * with its `[n]` markers linked to the citations, each citation linked to its page's section,
 * the coverage verdict and the frontier notes, with "write this page" where one is missing.
 */
export function AskPage(
  props: SpaceView & {
    question: string;
    answer: Answer | null;
    error?: string;
    /** Turns a citation's absolute URL into a link on this site. */
    href: (url: string) => string;
  },
) {
  const { wiki, role } = props.space;
  const answer = props.answer;
  return (
    <WikiFrame {...props} title={`Ask ${wiki.title}`} query={props.question}>
      <Alert message={props.error} />
      {!answer && !props.error && (
        <p class="hint">
          Type a question in the box above and press Ask: the answer quotes this wiki's pages and
          says where it is thin.
        </p>
      )}
      {answer && (
        <section aria-labelledby="answer-heading" class="answer">
          <h2 id="answer-heading">{answer.question}</h2>
          <p class={`coverage ${answer.coverage}`}>
            <strong>{COVERAGE[answer.coverage]}</strong>
            {answer.mode === "extractive" && " · quoted from the pages"}
          </p>
          <p>
            {answer.answer.split(/(\[\d+\])/).map((part, i) => {
              const n = /^\[(\d+)\]$/.exec(part)?.[1];
              return (
                <Fragment key={String(i)}>
                  {n ? <a href={`#cite-${n}`}>{part}</a> : part}
                </Fragment>
              );
            })}
          </p>
          {answer.citations.length > 0 && (
            <>
              <h3>Sources</h3>
              <ol class="citations">
                {answer.citations.map((c) => (
                  <li id={`cite-${c.n}`} value={c.n}>
                    <a href={props.href(c.url)}>
                      {c.section ?? c.title}
                    </a>
                    <blockquote>{c.quote}</blockquote>
                  </li>
                ))}
              </ol>
            </>
          )}
          {answer.frontier.length > 0 && (
            <>
              <h3>Where the wiki is thin</h3>
              <ul class="frontier">
                {answer.frontier.map((f) => (
                  <li>
                    {f.note}
                    {role && f.kind === "missing_page" && f.pages?.map((p) => (
                      <>
                        {" "}
                        <a class="missing" href={newPageHref(wiki.id, p)}>Write “{p}”</a>
                      </>
                    ))}
                    {role && f.kind === "uncovered" && (
                      <>
                        {" "}
                        <a href={newPageHref(wiki.id)}>Write this page</a>
                      </>
                    )}
                  </li>
                ))}
              </ul>
            </>
          )}
        </section>
      )}
    </WikiFrame>
  );
}
