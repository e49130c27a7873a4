import type { Child } from "hono/jsx";
import { Fragment } from "hono/jsx";
import { PageFrame, type SpaceView } from "../kit/web/wiki_frame.tsx";
import type { PageContext } from "../kit/web/layout.tsx";
import { pageUrl } from "../lib/urls.ts";
import type { WikiRow } from "../db/wiki_row.ts";
import { DailyChart } from "./chart.tsx";
import { newPageHref, toolHref } from "../kit/web/space_urls.ts";
import type {
  AskedQuestion,
  ClientUsage,
  DailyUsage,
  PageCount,
  SearchMade,
  UseNote,
} from "./store.ts";
import type { CoverageGap } from "./usage_report.ts";

/** The periods the usage page offers, in days. */
export const PERIODS = [7, 30, 90] as const;

/** What the usage page shows of a wiki over a period. */
export type UsageView = {
  wiki: WikiRow;
  days: number;
  daily: DailyUsage[];
  confirmed: PageCount[];
  read: PageCount[];
  clients: ClientUsage[];
  notes: UseNote[];
  questions: AskedQuestion[];
  searches: SearchMade[];
  gaps: CoverageGap[];
};

const SERIES = [
  { key: "searches", label: "Searches", one: "search", color: "#0645ad" },
  { key: "asks", label: "Questions", one: "question", color: "#7b1fa2", dash: "8 2 2 2" },
  { key: "reads", label: "Page reads", one: "page read", color: "#c05500", dash: "6 3" },
  { key: "confirms", label: "Confirmed uses", one: "confirmed use", color: "#1b7a1b", dash: "2 3" },
] as const;

type Kind = typeof SERIES[number];

/**
 * A wiki's usage by assistants for its members: searches, questions, page reads and confirmed
 * uses per day (a chart and its table), the coverage gaps (questions the wiki could not
 * answer, grouped, each with "write this page"), the latest questions, the pages confirmed
 * and read most, the clients, and the notes assistants left.
 */
export function UsagePage(
  props: PageContext & UsageView & { view?: SpaceView; ratings?: Child },
) {
  const { wiki, days } = props;
  const totals = Object.fromEntries(
    SERIES.map((s) => [s.key, props.daily.reduce((sum, d) => sum + d[s.key], 0)]),
  ) as Totals;
  return (
    <PageFrame
      title={`Usage of ${wiki.title}`}
      account={props.account}
      csrfToken={props.csrfToken}
      view={props.view}
    >
      <UsageIntro wikiId={wiki.id} title={wiki.title} days={days} />
      <PerDay daily={props.daily} totals={totals} />

      <h2 id="gaps">Coverage gaps</h2>
      <p class="hint">
        Questions the wiki could not answer, answered only in part, or that point to a page nobody
        wrote, grouped by the page that would answer them: the wiki's to-do list, most asked first.
        Only this space's members see them.
      </p>
      <GapList wikiId={wiki.id} gaps={props.gaps} />

      <h2 id="questions">Questions asked</h2>
      <p class="hint">Each question links to what the wiki answers it with now.</p>
      <QuestionTable wikiId={wiki.id} rows={props.questions} />

      <h2 id="searches">Searches made</h2>
      <SearchTable rows={props.searches} />

      <h2>Confirmed uses</h2>
      <p class="hint">
        Pages assistants said they used in an answer (the <code>confirm_use</code> tool).
      </p>
      <PageTable wikiId={wiki.id} rows={props.confirmed} column="Confirmed uses" empty="None" />

      <h2>Pages read</h2>
      <PageTable wikiId={wiki.id} rows={props.read} column="Reads" empty="None" />

      <h2>By client</h2>
      <ClientTable clients={props.clients} />
      <AssistantNotes wikiId={wiki.id} notes={props.notes} />

      {totals.searches + totals.asks + totals.reads + totals.confirms === 0 && (
        <p>
          No assistant has used this wiki in the last {days} days.{" "}
          <a href={`/w/${wiki.id}/-/connect`}>Connect an assistant</a>.
        </p>
      )}
      {props.ratings}
    </PageFrame>
  );
}

type Totals = Record<Kind["key"], number>;

/** The page's opening: what it counts, and the periods it offers. */
function UsageIntro({ wikiId, title, days }: { wikiId: string; title: string; days: number }) {
  const base = `/w/${wikiId}/-/usage`;
  return (
    <>
      <p>
        What assistants searched, asked, read and confirmed using in{" "}
        <a href={`/w/${wikiId}`}>{title}</a>{" "}
        <code>{wikiId}</code>, counted per day (UTC) over MCP and the REST API, with the questions
        asked on the <a href={toolHref(wikiId, "ask")}>Ask page</a>{" "}
        and the searches made in the web app. What they reported and proposed is on the{" "}
        <a href={`/w/${wikiId}/-/feedback`}>feedback page</a>.
      </p>
      <nav aria-label="Period" class="periods">
        Show the last {PERIODS.map((p, i) => (
          <>
            {i > 0 && " · "}
            <a href={`${base}?days=${p}`} aria-current={p === days ? "page" : undefined}>
              {p} days
            </a>
          </>
        ))}
      </nav>
    </>
  );
}

/** The totals of the period, the chart per day and its table. */
function PerDay({ daily, totals }: { daily: DailyUsage[]; totals: Totals }) {
  const noun = (s: Kind) => totals[s.key] === 1 ? s.one : s.label.toLowerCase();
  const count = (s: Kind) => `${totals[s.key]} ${noun(s)}`;
  const first = daily[0]?.day ?? "";
  const last = daily[daily.length - 1]?.day ?? "";
  return (
    <>
      <h2>Per day</h2>
      <ul class="totals">
        {SERIES.map((s) => (
          <li>
            <strong>{totals[s.key]}</strong> {noun(s)}
          </li>
        ))}
      </ul>
      <DailyChart
        days={daily.map((d) => d.day)}
        series={SERIES.map((s) => ({
          ...s,
          values: daily.map((d) => d[s.key]),
        }))}
        label={`Searches, questions, page reads and confirmed uses per day from ${first} to ${last}: ` +
          `${SERIES.map(count).join(", ")} in all. The numbers are in the table "Numbers per day".`}
      />
      <PerDayTable daily={daily} />
    </>
  );
}

/** The chart's numbers, for the days that had any. */
function PerDayTable({ daily }: { daily: DailyUsage[] }) {
  const active = daily.filter((d) => d.searches + d.asks + d.reads + d.confirms > 0);
  return (
    <details>
      <summary>Numbers per day</summary>
      {active.length === 0 ? <p>No activity in this period.</p> : (
        <table class="per-day">
          <caption class="sr-only">Numbers per day</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {SERIES.map(columnHeader)}
            </tr>
          </thead>
          <tbody>
            {active.map((d) => (
              <tr>
                <th scope="row">{d.day}</th>
                {SERIES.map((s) => cell(d[s.key]))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {active.length > 0 && <p class="hint">Days not listed had no activity.</p>}
    </details>
  );
}

/** The period's figures per client. */
function ClientTable({ clients }: { clients: ClientUsage[] }) {
  return (
    <>
      {clients.length === 0 ? <p>No client has called yet in this period.</p> : (
        <table>
          <thead>
            <tr>
              <th scope="col">Client</th>
              {SERIES.map(columnHeader)}
            </tr>
          </thead>
          <tbody>
            {clients.map((c) => (
              <tr>
                <th scope="row">{c.client || <em>unnamed</em>}</th>
                <td>{c.searches}</td>
                <td>{c.asks}</td>
                <td>{c.reads}</td>
                <td>{c.confirms}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p class="hint">
        A client is named by its OAuth registration or its User-Agent (without the version).
      </p>
    </>
  );
}

/** The notes assistants left on pages, when there are any. */
function AssistantNotes({ wikiId, notes }: { wikiId: string; notes: UseNote[] }) {
  if (notes.length === 0) return null;
  return (
    <>
      <h2>Notes from assistants</h2>
      <ul class="notes">
        {notes.map((n) => (
          <li>
            <a href={pageUrl("", wikiId, n.page_path)}>{n.page_path}</a>{" "}
            <span class="hint">
              {n.client_name ? `${n.client_name}, ` : ""}
              {n.created_at.toISOString().slice(0, 10)}
            </span>
            <blockquote>{n.note}</blockquote>
          </li>
        ))}
      </ul>
    </>
  );
}

function columnHeader(series: { label: string }) {
  return <th scope="col">{series.label}</th>;
}

function cell(value: number) {
  return <td>{value}</td>;
}

function PageTable(props: { wikiId: string; rows: PageCount[]; column: string; empty: string }) {
  if (props.rows.length === 0) return <p>{props.empty} in this period.</p>;
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">Page</th>
          <th scope="col">{props.column}</th>
        </tr>
      </thead>
      <tbody>
        {props.rows.map((r) => (
          <tr>
            <td class="path">
              {r.exists
                ? <a href={pageUrl("", props.wikiId, r.path)}>{r.path}</a>
                : <>{r.path || "A page"} (deleted)</>}
            </td>
            <td>{r.count}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Where a question came from, in words. */
const VIA: Record<AskedQuestion["via"], string> = { mcp: "MCP", rest: "REST", web: "Ask page" };

/** Where a search was made, in words. */
const SEARCH_VIA: Record<SearchMade["via"], string> = { mcp: "MCP", rest: "REST", web: "Web app" };

/** How a question was answered, in a word. */
const VERDICT: Record<AskedQuestion["coverage"], string> = {
  supported: "Answered",
  partial: "In part",
  unsupported: "Not answered",
};

function GapList(props: { wikiId: string; gaps: CoverageGap[] }) {
  if (props.gaps.length === 0) {
    return <p>No unanswered questions in this period.</p>;
  }
  return (
    <ol class="gaps">
      {props.gaps.map((g) => (
        <li>
          <strong>{g.title}</strong>{" "}
          <span class="hint">
            asked {g.asked === 1 ? "once" : `${g.asked} times`}
            {g.unanswered > 0 && `, ${g.unanswered} not answered at all`}, last on{" "}
            {g.lastAsked.toISOString().slice(0, 10)}
            {g.linked && ", already linked from other pages"}
          </span>{" "}
          <a class="write-gap" href={newPageHref(props.wikiId, g.title)}>Write this page</a>
          <ul>
            {g.questions.map((q) => (
              <Fragment key={q}>
                <li>
                  <a href={toolHref(props.wikiId, "ask", { q })}>{q}</a>
                </li>
              </Fragment>
            ))}
          </ul>
          {g.missing.length > 0 && (
            <p class="hint">
              No page mentions {g.missing.map((w, i) => (
                <>
                  {i > 0 && ", "}
                  <q>{w}</q>
                </>
              ))}.
            </p>
          )}
        </li>
      ))}
    </ol>
  );
}

function QuestionTable(props: { wikiId: string; rows: AskedQuestion[] }) {
  if (props.rows.length === 0) return <p>No questions in this period.</p>;
  return (
    <table class="questions">
      <thead>
        <tr>
          <th scope="col">Question</th>
          <th scope="col">Answer</th>
          <th scope="col">Asked through</th>
          <th scope="col">When (UTC)</th>
        </tr>
      </thead>
      <tbody>
        {props.rows.map((q) => (
          <tr>
            <td>
              <a href={toolHref(props.wikiId, "ask", { q: q.question })}>{q.question}</a>
              {q.times > 1 && <span class="hint">{` asked ${q.times} times`}</span>}
            </td>
            <td class={`verdict ${q.coverage}`}>{VERDICT[q.coverage]}</td>
            <td>{VIA[q.via]}{q.client && q.via !== "web" ? ` (${q.client})` : ""}</td>
            <td>{q.created_at.toISOString().slice(0, 16).replace("T", " ")}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function SearchTable(props: { rows: SearchMade[] }) {
  if (props.rows.length === 0) return <p>No searches in this period.</p>;
  return (
    <table class="searches">
      <thead>
        <tr>
          <th scope="col">Search</th>
          <th scope="col">Pages found</th>
          <th scope="col">Made through</th>
          <th scope="col">When (UTC)</th>
        </tr>
      </thead>
      <tbody>
        {props.rows.map((s) => (
          <tr>
            <td>{s.query}</td>
            <td>{s.results === 0 ? <strong>Nothing</strong> : s.results}</td>
            <td>{SEARCH_VIA[s.via]}{s.client && s.via !== "web" ? ` (${s.client})` : ""}</td>
            <td>{s.created_at.toISOString().slice(0, 16).replace("T", " ")}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
