import { exampleOf, resolveRef, type Schema, typesOf } from "./openapi_examples.ts";

type Media = Record<string, { schema?: Schema; example?: unknown }>;
type Parameter = {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
};
/** One operation of the OpenAPI document, read as plain data. */
export type Operation = {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; description?: string; content?: Media };
  responses: Record<string, { description?: string; content?: Media }>;
};
/** The parts of the document the reference reads. */
export type Spec = {
  info: { title: string; description?: string; version?: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components?: Record<string, unknown>;
};

/** The anchor of an operation: its `operationId`, else its method and path. */
export function operationAnchor(method: string, path: string, op: Operation): string {
  return op.operationId ??
    `${method}${path.replace(/[{}]/g, "").replace(/[^A-Za-z0-9]+/g, "-")}`.replace(/-$/, "");
}

/** Text with `code` spans, as the document's descriptions write them. */
export function Text(props: { text?: string }) {
  return (
    <>
      {(props.text ?? "").split("`").map((part, i) => i % 2 ? <code>{part}</code> : part)}
    </>
  );
}

const pretty = (value: unknown) =>
  typeof value === "string" ? value : JSON.stringify(value, null, 2);

/** A short type label: `string`, `integer | null`, `array of object`, `Problem`. */
function typeLabel(spec: Spec, input: Schema): string {
  if (typeof input.$ref === "string") return input.$ref.split("/").pop()!;
  const schema = input;
  const union = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (union) return union.map((s) => typeLabel(spec, s)).join(" | ");
  const types = typesOf(schema);
  return types.map((t) =>
    t === "array" ? `array of ${typeLabel(spec, (schema.items ?? {}) as Schema)}` : t
  ).join(" | ") || "any";
}

/** What constrains a value, in words: enum, bounds, default. */
function constraints(schema: Schema): string {
  const parts: string[] = [];
  if (Array.isArray(schema.enum)) parts.push(`one of ${schema.enum.join(", ")}`);
  if (typeof schema.minimum === "number") parts.push(`≥ ${schema.minimum}`);
  if (typeof schema.maximum === "number") parts.push(`≤ ${schema.maximum}`);
  if (typeof schema.maxLength === "number") parts.push(`≤ ${schema.maxLength} chars`);
  if ("default" in schema) parts.push(`default ${JSON.stringify(schema.default)}`);
  return parts.join("; ");
}

type Field = { name: string; type: string; required: boolean; note: string };

/** The fields of an object schema, nested ones with dotted names (`spaces[].id`). */
function fieldsOf(spec: Spec, input: Schema, prefix = "", depth = 0): Field[] {
  const schema = resolveRef(spec, input);
  const required = new Set((schema.required ?? []) as string[]);
  const fields: Field[] = [];
  for (const [key, raw] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
    const child = resolveRef(spec, raw);
    const name = prefix + key;
    const note = [child.description, constraints(child)].filter(Boolean).join(". ");
    fields.push({ name, type: typeLabel(spec, raw), required: required.has(key), note });
    if (depth >= 3) continue;
    const item = typesOf(child).includes("array")
      ? resolveRef(spec, (child.items ?? {}) as Schema)
      : child;
    if (item.properties) {
      const suffix = item === child ? "." : "[].";
      fields.push(...fieldsOf(spec, item, name + suffix, depth + 1));
    }
  }
  return fields;
}

function FieldTable(props: { fields: Field[]; caption: string }) {
  return (
    <div class="scroll" role="region" aria-label={props.caption} tabindex={0}>
      <table>
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Type</th>
            <th scope="col">Notes</th>
          </tr>
        </thead>
        <tbody>
          {props.fields.map((f) => (
            <tr>
              <td>
                <code>{f.name}</code>
                {f.required && <span class="req">required</span>}
              </td>
              <td>{f.type}</td>
              <td>
                <Text text={f.note} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The example of a media type: its own, else one built from its schema. */
function mediaExample(spec: Spec, media: { schema?: Schema; example?: unknown }): unknown {
  return "example" in media ? media.example : exampleOf(spec, media.schema ?? {});
}

/** A shell command that makes the request, with the example values. */
function curlFor(spec: Spec, method: string, path: string, op: Operation, base: string): string {
  const params = op.parameters ?? [];
  const url = path.replace(
    /\{(\w+)\}/g,
    (_, name) =>
      encodeURIComponent(
        String(exampleOf(spec, params.find((p) => p.name === name)?.schema ?? {}, name)),
      ),
  );
  const lines = [`curl${method === "get" ? "" : ` -X ${method.toUpperCase()}`} '${base}${url}'`];
  if (op.security?.length) lines.push(`-H "Authorization: Bearer $WIKI_TOKEN"`);
  const json = op.requestBody?.content?.["application/json"];
  if (json) {
    lines.push(`-H 'Content-Type: application/json'`);
    lines.push(`-d '${JSON.stringify(mediaExample(spec, json)).replaceAll("'", "'\\''")}'`);
  }
  return lines.join(" \\\n  ");
}

/** A form to send the request from the browser: shown by `/assets/api_try.js`, never without it. */
function TryIt(props: { spec: Spec; method: string; path: string; op: Operation; id: string }) {
  const { spec, op, id } = props;
  const params = (op.parameters ?? []).filter((p) => p.in === "path" || p.in === "query");
  const json = op.requestBody?.content?.["application/json"];
  const bodyOnly = op.requestBody && !json;
  return (
    <form
      class="try"
      hidden
      data-method={props.method.toUpperCase()}
      data-path={props.path}
      data-secured={op.security?.length ? "true" : "false"}
      aria-label={`Try ${props.method.toUpperCase()} ${props.path}`}
    >
      <h4>Try it</h4>
      {bodyOnly && (
        <p class="hint">This request takes a file body: send it with the command above.</p>
      )}
      {params.map((p) => (
        <label>
          {p.name} <span class="hint">({p.in}{p.required ? ", required" : ""})</span>
          <input
            name={p.name}
            data-in={p.in}
            required={p.required}
            value={p.required ? String(exampleOf(spec, p.schema ?? {}, p.name) ?? "") : ""}
            id={`${id}-${p.name}`}
          />
        </label>
      ))}
      {json && (
        <label>
          Body <span class="hint">(application/json)</span>
          <textarea name="body" rows={6} class="code">
            {pretty(mediaExample(spec, json))}
          </textarea>
        </label>
      )}
      {!bodyOnly && <button type="submit">Send {props.method.toUpperCase()}</button>}
      <div class="result" aria-live="polite"></div>
    </form>
  );
}

/** The request body an operation takes: its media types, fields and an example. */
function RequestBody({ spec, body }: { spec: Spec; body: NonNullable<Operation["requestBody"]> }) {
  return (
    <section class="body">
      <h4>Request body{body.required ? "" : " (optional)"}</h4>
      {body.description && (
        <p>
          <Text text={body.description} />
        </p>
      )}
      {Object.entries(body.content ?? {}).map(([type, media]) => (
        <>
          <p>
            <code>{type}</code>
            {media.schema && !resolveRef(spec, media.schema).properties &&
              <>: {typeLabel(spec, media.schema)}</>}
          </p>
          {media.schema && resolveRef(spec, media.schema).properties && (
            <>
              <FieldTable caption={`Fields of ${type}`} fields={fieldsOf(spec, media.schema)} />
              <Example spec={spec} media={media} />
            </>
          )}
        </>
      ))}
    </section>
  );
}

/** A body's example, focusable so a keyboard can scroll it. */
function Example(
  { spec, media }: { spec: Spec; media: Parameters<typeof mediaExample>[1] },
) {
  return (
    <>
      <p class="example-label">Example</p>
      <pre class="example" tabindex={0}><code>{pretty(mediaExample(spec, media))}</code></pre>
    </>
  );
}

/** The success responses of an operation, the first open, each with its fields and an example. */
function SuccessResponses(
  { spec, success }: { spec: Spec; success: [string, Operation["responses"][string]][] },
) {
  return (
    <>
      {success.map(([status, response]) => (
        <details class="response" open={status === success[0]?.[0]}>
          <summary>
            <strong>{status}</strong> <Text text={response.description} />
          </summary>
          {Object.entries(response.content ?? {}).map(([type, media]) => (
            <>
              <p>
                <code>{type}</code>
              </p>
              {type === "application/json" && media.schema && (
                <>
                  <FieldTable
                    caption={`Fields of ${status}`}
                    fields={fieldsOf(spec, media.schema)}
                  />
                  <Example spec={spec} media={media} />
                </>
              )}
            </>
          ))}
        </details>
      ))}
    </>
  );
}

/** One operation: what it does, its auth, parameters, body, responses with examples, try-it. */
export function OperationSection(
  props: { spec: Spec; method: string; path: string; op: Operation; base: string },
) {
  const { spec, method, path, op } = props;
  const id = operationAnchor(method, path, op);
  const params = op.parameters ?? [];
  const statuses = Object.entries(op.responses);
  const success = statuses.filter(([s]) => /^[23]/.test(s));
  const errors = statuses.filter(([s]) => !/^[23]/.test(s));
  return (
    <article class="op" id={id}>
      <h3>
        <span class={`method ${method}`}>{method.toUpperCase()}</span> <code>{path}</code>
      </h3>
      <p class="summary">
        <Text text={op.summary} />
      </p>
      {op.description && (
        <p>
          <Text text={op.description} />
        </p>
      )}
      <p class="auth">
        {op.security?.length
          ? (
            <>
              Needs an <a href="#authentication">account token</a>.
            </>
          )
          : <>No credential needed.</>}
      </p>
      {params.length > 0 && (
        <FieldTable
          caption="Parameters"
          fields={params.map((p) => ({
            name: `${p.name} (${p.in})`,
            type: typeLabel(spec, p.schema ?? {}),
            required: p.required ?? false,
            note: [p.description ?? p.schema?.description, constraints(p.schema ?? {})]
              .filter(Boolean).join(". "),
          }))}
        />
      )}
      {op.requestBody && <RequestBody spec={spec} body={op.requestBody} />}
      <h4>Example request</h4>
      <pre tabindex={0}><code>{curlFor(spec, method, path, op, props.base)}</code></pre>
      <h4>Responses</h4>
      <SuccessResponses spec={spec} success={success} />
      <p class="errors">
        Errors (<a href="#errors">problem+json</a>): {errors.map(([status, response], i) => (
          <>
            {i > 0 && ", "}
            <abbr title={response.description}>{status}</abbr>
          </>
        ))}
      </p>
      <TryIt spec={spec} method={method} path={path} op={op} id={id} />
    </article>
  );
}
