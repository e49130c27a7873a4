/**
 * A heading path as text with its code spans as `<code>`: "OCR settings > `PAPERLESS_OCR_MODE`"
 * shows the setting's name as code, not between backticks (section paths keep a heading's inline
 * code, docs/retrieval.md). Everything else is text, escaped as JSX escapes it.
 */
export function CodeSpans(props: { text: string }) {
  const parts = props.text.split(/(`[^`\n]+`)/);
  return (
    <>
      {parts.map((part, i) => i % 2 === 1 ? <code>{part.slice(1, -1)}</code> : part)}
    </>
  );
}
