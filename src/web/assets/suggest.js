// Suggestions as you type, for the search box under a page's header (search.js) and the Ctrl+K
// palette (palette.js): a pause of `delay` ms after the last key, then GET <address>?q=… (JSON,
// `{ results }`); an older request still on its way is cancelled, a query under two characters
// shows nothing. A failed request shows nothing new: the form still searches on Enter.
export function suggestAsYouType(input, address, delay, show) {
  let timer = null;
  let pending = null;
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const query = input.value.trim();
      pending?.abort();
      if (query.length < 2) return show([]);
      const controller = new AbortController();
      pending = controller;
      try {
        const res = await fetch(`${address}?q=${encodeURIComponent(query)}`, {
          signal: controller.signal,
        });
        if (res.ok) show((await res.json()).results);
      } catch {
        // a newer query took over, or the network failed
      }
    }, delay);
  });
}
