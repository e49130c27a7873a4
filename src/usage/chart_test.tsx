import assert from "node:assert/strict";
import { DailyChart } from "./chart.tsx";

Deno.test("DailyChart writes thousands short so the axis numbers fit left of the plot", () => {
  const svg = String(
    <DailyChart
      days={["2026-11-01", "2026-11-02"]}
      series={[{ label: "Searches", values: [10, 4000], color: "#0645ad" }]}
      label="Searches per day"
    />,
  );
  const ticks = [...svg.matchAll(/<text[^>]*text-anchor="end"[^>]*>([^<]*)<\/text>/g)]
    .map((m) => m[1]!.trim());
  assert.deepEqual(ticks, ["0", "2.5k", "5k", "2 Nov"]);
});
