/** A one-line progress bar on stderr; on a non-terminal it prints a line per tenth instead. */
export function progressBar(label: string): (done: number, total: number, status: string) => void {
  const tty = Deno.stderr.isTerminal();
  const encoder = new TextEncoder();
  let lastTenth = -1;
  let lastDraw = 0;
  return (done, total, status) => {
    const fraction = total === 0 ? 1 : done / total;
    const width = 30;
    const filled = Math.round(fraction * width);
    const bar = `${label} [${"#".repeat(filled)}${
      ".".repeat(width - filled)
    }] ${done}/${total} ${status}`;
    if (tty) {
      const now = performance.now();
      if (done !== total && now - lastDraw < 50) return;
      lastDraw = now;
      Deno.stderr.writeSync(encoder.encode(`\r\x1b[2K${bar}${done === total ? "\n" : ""}`));
    } else {
      const tenth = Math.floor(fraction * 10);
      if (tenth === lastTenth) return;
      lastTenth = tenth;
      Deno.stderr.writeSync(encoder.encode(`${bar}\n`));
    }
  };
}
