/** One line of a chart: a value per day, told apart by colour and by dash pattern. */
export type Series = { label: string; values: number[]; color: string; dash?: string };

const WIDTH = 400;
const HEIGHT = 160;
/** Room for the y-axis numbers at the larger size a phone shows them in (`layout.tsx`). */
const LEFT = 40;
const RIGHT = 6;
const TOP = 8;
const BOTTOM = 18;

/**
 * A line chart of counts per day as inline SVG: no script, scales to the column's width.
 * The SVG is one image to assistive technology (`role="img"` and `label`); the page gives
 * the numbers as a table next to it.
 */
export function DailyChart(props: { days: string[]; series: Series[]; label: string }) {
  const n = props.days.length;
  const top = niceCeiling(Math.max(0, ...props.series.flatMap((s) => s.values)));
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const x = (i: number) => LEFT + (n <= 1 ? plotWidth / 2 : (i * plotWidth) / (n - 1));
  const y = (v: number) => TOP + plotHeight - (v / top) * plotHeight;
  const ticks = [0, top / 2, top].filter((t) => Number.isInteger(t));
  return (
    <figure class="chart">
      <svg
        role="img"
        aria-label={props.label}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="xMidYMid meet"
      >
        {ticks.map((t) => (
          <g>
            <line x1={LEFT} x2={WIDTH - RIGHT} y1={y(t)} y2={y(t)} stroke="#ddd" />
            <text x={LEFT - 4} y={y(t) + 4} text-anchor="end" font-size="11" fill="#555">
              {compact(t)}
            </text>
          </g>
        ))}
        <text x={LEFT} y={HEIGHT - 4} font-size="11" fill="#555">{shortDate(props.days[0])}</text>
        <text x={WIDTH - RIGHT} y={HEIGHT - 4} text-anchor="end" font-size="11" fill="#555">
          {shortDate(props.days[n - 1])}
        </text>
        {props.series.map((s) => (
          <g>
            <polyline
              fill="none"
              stroke={s.color}
              stroke-width="2"
              stroke-dasharray={s.dash}
              stroke-linejoin="round"
              points={s.values.map((v, i) => `${round(x(i))},${round(y(v))}`).join(" ")}
            />
            {s.values.map((v, i) =>
              v > 0 && (
                <circle cx={round(x(i))} cy={round(y(v))} r="2.5" fill={s.color}>
                  <title>{`${props.days[i]}: ${v} ${s.label.toLowerCase()}`}</title>
                </circle>
              )
            )}
          </g>
        ))}
      </svg>
      <figcaption>
        <ul class="legend">
          {props.series.map((s) => (
            <li>
              <svg width="24" height="10" aria-hidden="true">
                <line
                  x1="0"
                  x2="24"
                  y1="5"
                  y2="5"
                  stroke={s.color}
                  stroke-width="2"
                  stroke-dasharray={s.dash}
                />
              </svg>
              {s.label}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}

/** The smallest of 1, 2, 5 × 10ⁿ (at least 2, so the middle line is whole) at or above `max`. */
function niceCeiling(max: number): number {
  if (max <= 2) return 2;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) {
    if (step * power >= max) return step * power;
  }
  return 10 * power;
}

function shortDate(day: string | undefined): string {
  if (!day) return "";
  const [, month, date] = day.split("-");
  const months = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split(" ");
  return `${Number(date)} ${months[Number(month) - 1]}`;
}

/** A tick's number in at most four characters (`2500` → `2.5k`), to fit left of the axis. */
function compact(value: number): string {
  return value >= 1000 ? `${value / 1000}k` : String(value);
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
