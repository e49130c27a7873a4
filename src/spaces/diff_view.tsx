import { Fragment } from "hono/jsx";
import type { LineDiff } from "./line_diff.ts";

/**
 * A line diff as text people and screen readers can follow: each line starts with `+`, `-`
 * or a space and sits in `<ins>` or `<del>`, so the change never rests on colour alone.
 */
export function DiffView(props: { diff: LineDiff; label: string }) {
  const { diff } = props;
  if (!diff.parts) {
    return <p class="hint">The two texts differ too much to compare line by line.</p>;
  }
  if (diff.added === 0 && diff.removed === 0) return <p class="hint">The texts are the same.</p>;
  return (
    <>
      <p class="hint">
        {count(diff.added, "line")} added, {count(diff.removed, "line")} removed
      </p>
      {/* Focusable and named, so keyboard users can scroll a wide diff. */}
      <div class="scroll" role="region" aria-label={props.label} tabindex={0}>
        <pre class="diff">
        {diff.parts.map((part, i) => (
          <Fragment key={String(i)}>
            {part.kind === "skipped"
              ? <span class="skip">{`⋯ ${count(part.count, "unchanged line")} ⋯\n`}</span>
              : part.lines.map((line, j) => (
                <Fragment key={String(j)}>
                  {line.kind === "added"
                    ? <ins>{`+ ${line.text}\n`}</ins>
                    : line.kind === "removed"
                    ? <del>{`- ${line.text}\n`}</del>
                    : <span>{`  ${line.text}\n`}</span>}
                </Fragment>
              ))}
          </Fragment>
        ))}
        </pre>
      </div>
    </>
  );
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
