import type { Answer } from "./ask_schema.ts";
import { titleOf } from "../usage/question_gaps.ts";
import { partOfNote } from "./parts.ts";
import { Alert } from "../kit/web/form_kit.tsx";
import { CodeSpans } from "../kit/web/code_spans.tsx";
import { renderMarkdown } from "../spaces/render_markdown.ts";
import { newPageHref, toolHref } from "../kit/web/space_urls.ts";
import { type SpaceView, WikiFrame } from "../kit/web/wiki_frame.tsx";

/** How sure the answer is, in words a reader takes in at a glance. */
const COVERAGE: Record<Answer["coverage"], string> = {
  supported: "Answered from the wiki",
  partial: "Partly answered: the wiki covers some of this",
  unsupported: "Not answered: the wiki does not cover this yet",
};

/**
 * Ask the wiki (`GET /w/<id>/-/ask?q=…`, a plain form: works without script, the answer
 * rendered whole on the server). With script, `ask.js` streams the answer from
 * `/-/ask/stream` into the same place instead. The answer has its `[n]` markers linked to the
 * citations, each citation linked to its page's section, the coverage verdict and the
 * frontier notes, with "write this page" where one is missing.
 */
export function AskPage(
  props: SpaceView & {
    question: string;
    answer: Answer | null;
    error?: string;
    /** Asked from the wiki bar with script on: `ask.js` streams the answer in at once. */
    streamed?: boolean;
    /** Turns a citation's absolute URL into a link on this site. */
    href: (url: string) => string;
  },
) {
  const { wiki, role } = props.space;
  const answer = props.answer;
  return (
    <WikiFrame {...props} title={`Ask ${wiki.title}`} scripts={["ask.js"]}>
      <form
        method="get"
        action={toolHref(wiki.id, "ask")}
        class="ask-form"
        aria-label="Ask the wiki"
        data-stream={toolHref(wiki.id, "ask/stream")}
        data-autostart={props.streamed ? "" : undefined}
      >
        <label for="ask-question">Your question</label>
        <input
          id="ask-question"
          type="text"
          name="q"
          value={props.question}
          maxlength={2000}
          required
          autocomplete="off"
        />
        <button type="submit">Ask</button>
      </form>
      <p id="ask-status" class="hint" role="status"></p>
      <div id="ask-result">
        <Alert message={props.error} />
        {!answer && !props.error && !props.streamed && (
          <p class="hint">
            Type a question and press Ask: the answer quotes this wiki's pages, links each quote to
            its section, and says where the wiki is thin.
          </p>
        )}
        {answer && (
          <AnswerView
            answer={answer}
            wikiId={wiki.id}
            member={!!role}
            href={props.href}
          />
        )}
      </div>
    </WikiFrame>
  );
}

/**
 * An answer as the Ask page shows it: rendered whole into the page, or sent rendered at the
 * end of the stream (`ask_routes.tsx`) for `ask.js` to put in place — one rendering.
 */
export function AnswerView(
  props: { answer: Answer; wikiId: string; member: boolean; href: (url: string) => string },
) {
  const { answer, wikiId, member } = props;
  return (
    <section aria-labelledby="answer-heading" class="answer">
      <h2 id="answer-heading">{answer.question}</h2>
      <p class={`coverage ${answer.coverage}`}>
        <strong>{COVERAGE[answer.coverage]}</strong>
        {answer.mode === "extractive" && answer.citations.length > 0 && " · quoted from the pages"}
      </p>
      <div
        class="answer-text"
        dangerouslySetInnerHTML={{ __html: answerHtml(answer.answer, wikiId) }}
      />
      {answer.citations.length > 0 && (
        <>
          <h3>Sources</h3>
          <ol class="citations">
            {answer.citations.map((c) => (
              <li id={`cite-${c.n}`} value={c.n}>
                <a href={props.href(c.url)}>
                  <CodeSpans text={c.section ?? c.title} />
                </a>
                <blockquote
                  dangerouslySetInnerHTML={{ __html: sourceHtml(c.quote, c.wiki, c.page) }}
                />
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
                {member && <WriteLink note={f} wikiId={wikiId} question={answer.question} />}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

/**
 * The page a frontier note asks for, in the editor: the unwritten page a `missing_page` note
 * names (`"Worm bins" is linked from "Compost"`), or for `uncovered` words a page titled with
 * the question's words (the part's, for a note naming a part the wiki does not answer).
 */
function WriteLink(props: { note: Answer["frontier"][number]; wikiId: string; question: string }) {
  const { note, wikiId } = props;
  const target = note.kind === "missing_page"
    ? /^"(.+)" is linked from "/.exec(note.note)?.[1]
    : null;
  if (target) {
    return (
      <>
        {" "}
        <a class="missing" href={newPageHref(wikiId, target)}>Write “{target}”</a>
      </>
    );
  }
  if (note.kind !== "uncovered") return null;
  // A note naming a part of the question asks for a page on that part.
  const asked = partOfNote(note) ?? props.question;
  return (
    <>
      {" "}
      <a href={newPageHref(wikiId, titleOf(asked))}>Write this page</a>
    </>
  );
}

/**
 * A source's quote as its page shows it: the quote is the page's own markdown, cut from it byte
 * for byte (the API gives it so), and read raw it showed the format's syntax ("Set this to `0`",
 * a `!!! warning` line, a list's markers) where the answer above it did not.
 */
function sourceHtml(quote: string, wikiId: string, path: string): string {
  return renderMarkdown(inPlace(quote), { wikiId, path, targets: new Map(), canCreate: false });
}

/**
 * A quote of a code block indented in its page (under an MkDocs tab, a list item, a callout)
 * begins at its fence, its indentation before the quote: the lines after it keep theirs, and the
 * closing fence, indented four spaces, read as one more line of code (a stray "```" under
 * NGINX's configuration). The block's own indentation, the closing fence's, is taken from
 * every line after the first, as the page's renderer takes it.
 */
function inPlace(quote: string): string {
  const lines = quote.split("\n");
  const close = /^( +)(`{3,}|~{3,})\s*$/.exec(lines.at(-1) ?? "");
  if (lines.length < 2 || !/^(`{3,}|~{3,})/.test(lines[0]!) || !close) return quote;
  const indent = close[1]!.length;
  return [
    lines[0]!,
    ...lines.slice(1).map((l) => l.slice(Math.min(indent, /^ */.exec(l)![0].length))),
  ].join("\n");
}

/**
 * The answer's markdown (paragraphs, lists, fenced code) as HTML, through the page renderer
 * (raw HTML escaped, unsafe link schemes refused), its `[n]` markers linked to their citations
 * outside code.
 */
function answerHtml(markdown: string, wikiId: string): string {
  const html = renderMarkdown(markdown, { wikiId, path: "", targets: new Map(), canCreate: false });
  return html.split(/(<pre>[\s\S]*?<\/pre>)/).map((part) =>
    part.startsWith("<pre>")
      ? part
      : part.replace(/\[(\d+)\]/g, (m, n) => `<a href="#cite-${n}">${m}</a>`)
  ).join("");
}
