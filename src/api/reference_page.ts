type Operation = { summary?: string; description?: string; security?: unknown[]; tags?: string[] };
type Spec = {
  info: { title: string; description?: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
};

const escape = (s: string) =>
  s.replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[ch]!);

/** A plain, self-contained HTML reference of the API, rendered from its OpenAPI document. */
export function apiReferencePage(spec: Spec): string {
  const rows = Object.entries(spec.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) =>
      `<tr><td><code>${method.toUpperCase()}</code></td><td><code>${escape(path)}</code></td>` +
      `<td>${escape(op.summary ?? "")}${
        op.description ? `<br><small>${escape(op.description)}</small>` : ""
      }</td>` +
      `<td>${op.security ? "account token" : "none"}</td></tr>`
    )
  ).join("\n");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(spec.info.title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left;vertical-align:top}
code{font-size:.9em}</style></head><body>
<h1>${escape(spec.info.title)}</h1><p>${escape(spec.info.description ?? "")}</p>
<p>Base URL: <code>${escape(spec.servers?.[0]?.url ?? "")}</code>. Machine-readable:
<a href="openapi.json">openapi.json</a> (OpenAPI 3.1).</p>
<table><thead><tr><th>Method</th><th>Path</th><th>What it does</th><th>Auth</th></tr></thead>
<tbody>${rows}</tbody></table></body></html>`;
}
