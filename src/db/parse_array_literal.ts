/**
 * PostgreSQL's text form of an array (`{a,"b c",NULL}`, `{{1,2},{3,4}}`) as a JavaScript array,
 * each element through `element`; an unquoted NULL is null. Quoted elements keep what their
 * backslashes escape; `,` separates elements (every type we read: only `box[]` uses `;`).
 *
 * @example
 * parseArrayLiteral('{zucchini,"a \\"b\\""}', (x) => x); // ["zucchini", 'a "b"']
 */
export function parseArrayLiteral(text: string, element: (x: string) => unknown): unknown[] {
  let at = 0;
  const list = (): unknown[] => {
    const items: unknown[] = [];
    at++; // the opening brace
    while (at < text.length && text[at] !== "}") {
      if (text[at] === "{") items.push(list());
      else if (text[at] === '"') {
        let value = "";
        for (at++; at < text.length && text[at] !== '"'; at++) {
          if (text[at] === "\\") at++;
          value += text[at];
        }
        at++; // the closing quote
        items.push(element(value));
      } else {
        const end = [",", "}"].map((c) => text.indexOf(c, at)).filter((i) => i >= 0);
        const stop = Math.min(...end, text.length);
        const raw = text.slice(at, stop);
        items.push(raw === "NULL" ? null : element(raw));
        at = stop;
      }
      if (text[at] === ",") at++;
    }
    at++; // the closing brace
    return items;
  };
  return text.startsWith("{") ? list() : [];
}
