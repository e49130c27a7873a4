/** A JSON Schema node of the OpenAPI document, read as plain data. */
export type Schema = Record<string, unknown>;
type Doc = { paths?: unknown; components?: unknown };

/** Realistic values by property name, used when they satisfy the property's schema. */
const BY_NAME: Record<string, unknown> = {
  id: "docs",
  wiki: "docs",
  path: "Guides/Setup",
  page: "Guides/Setup",
  title: "Setup",
  name: "Team handbook",
  description: "How we work",
  url: "https://wiki.example.com/w/docs",
  review_url: "https://wiki.example.com/w/docs/proposals/1",
  webhook_url: "https://wiki.example.com/api/v1/hooks/git/docs",
  markdown: "# Setup\n\nInstall the CLI, then run `wiki login`. See [[Connecting an assistant]].",
  text: "Install the CLI, then run `wiki login`.",
  question: "How do I connect an assistant?",
  query: "connect cursor",
  answer: "Add the wiki's MCP address to the assistant's settings [1].",
  snippet: "Install the CLI, then run wiki login.",
  quote: "Install the CLI, then run `wiki login`.",
  section: "Install",
  anchor: "install",
  branch: "main",
  folder: "",
  note: "Covered by two pages",
  reason: "The answer is out of date",
  token: "ghp_…",
  code: "page_not_found",
  request_id: "6f1c2a9e-3b4d-4c5e-8f70-1a2b3c4d5e6f",
};
const DATE = "2026-11-24T09:30:00.000Z";

/** Follows a local `$ref` (`#/components/schemas/Problem`) within the document. */
export function resolveRef(doc: Doc, schema: Schema): Schema {
  let node = schema;
  for (let hops = 0; typeof node.$ref === "string" && hops < 10; hops++) {
    let target: unknown = doc;
    for (const part of node.$ref.replace(/^#\//, "").split("/")) {
      target = (target as Record<string, unknown> | undefined)?.[part];
    }
    node = (target ?? {}) as Schema;
  }
  return node;
}

/** The schema's types as a list (`type: ["string", "null"]` gives both). */
export function typesOf(schema: Schema): string[] {
  const type = schema.type;
  if (Array.isArray(type)) return type as string[];
  if (typeof type === "string") return [type];
  if (schema.properties) return ["object"];
  return [];
}

/** Whether a hinted value satisfies the (shallow) constraints of a string or number schema. */
function fits(schema: Schema, value: unknown): boolean {
  const types = typesOf(schema);
  if (Array.isArray(schema.enum)) return schema.enum.includes(value);
  if (typeof value === "string") {
    if (!types.includes("string")) return false;
    if (typeof schema.maxLength === "number" && value.length > schema.maxLength) return false;
    if (typeof schema.minLength === "number" && value.length < schema.minLength) return false;
    return typeof schema.pattern !== "string" || new RegExp(schema.pattern, "u").test(value);
  }
  return false;
}

/**
 * An example value for a schema: its own `example` or first of `examples`, its default, a
 * realistic value for a known property name, else one built from its type (the first
 * non-null branch of a union, one item of an array, every property of an object).
 */
export function exampleOf(doc: Doc, input: Schema, name = "", depth = 0): unknown {
  const schema = resolveRef(doc, input);
  if ("example" in schema) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ("const" in schema) return schema.const;
  if ("default" in schema) return schema.default;
  if (name in BY_NAME && fits(schema, BY_NAME[name])) return BY_NAME[name];
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const union = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (union) {
    const branch = union.find((s) => !typesOf(resolveRef(doc, s)).includes("null")) ?? union[0];
    return branch ? exampleOf(doc, branch, name, depth) : null;
  }
  const type = typesOf(schema).find((t) => t !== "null") ?? "null";
  switch (type) {
    case "object": {
      if (depth > 6) return {};
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      return Object.fromEntries(
        Object.entries(properties).map(([key, s]) => [key, exampleOf(doc, s, key, depth + 1)]),
      );
    }
    case "array":
      return depth > 6 ? [] : [exampleOf(doc, (schema.items ?? {}) as Schema, name, depth + 1)];
    case "integer":
    case "number": {
      const min = typeof schema.minimum === "number" ? schema.minimum : 1;
      return typeof schema.maximum === "number" ? Math.min(min, schema.maximum) : min;
    }
    case "boolean":
      return true;
    case "string":
      if (schema.format === "binary") return "<binary>";
      if (/_at$/.test(name)) return DATE;
      return fits(schema, name || "text") ? name || "text" : "";
    default:
      return null;
  }
}

type Media = Record<string, { schema?: Schema; example?: unknown; examples?: unknown }>;
type Operation = {
  requestBody?: { content?: Media };
  responses?: Record<string, { content?: Media }>;
};

/**
 * Adds an `example` to each JSON request body and each successful JSON response of the
 * document that has none, built from its schema (`exampleOf`), so readers of the document and
 * of `/api/v1/docs` see one for every operation.
 */
export function addExamples<D extends Doc>(doc: D): D {
  const fill = (content: Media | undefined) => {
    const media = content?.["application/json"];
    if (!media?.schema || "example" in media || "examples" in media) return;
    media.example = exampleOf(doc, media.schema);
  };
  for (const ops of Object.values((doc.paths ?? {}) as Record<string, Record<string, Operation>>)) {
    for (const op of Object.values(ops)) {
      fill(op.requestBody?.content);
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        if (status.startsWith("2")) fill(response.content);
      }
    }
  }
  return doc;
}
