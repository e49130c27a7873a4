import type { z } from "zod";
import { AppError } from "../../errors.ts";
import { parsePageUrl, splitVersion } from "../../lib/urls.ts";

/**
 * How a server's read tools find their wiki: from a parameter (`wiki` on the hub, `space` on
 * the private endpoint) checked by `resolve`, or fixed by the endpoint (no parameter).
 */
export type WikiScope = {
  param: {
    name: "wiki" | "space";
    schema: z.ZodType<string | undefined>;
    /** The same parameter on `search`, where leaving it out searches every wiki of `all`. */
    searchSchema: z.ZodType<string | undefined>;
  } | null;
  resolve(value: string | undefined): Promise<string>;
  /** The wikis a search covers when the parameter is left out: every public wiki, every space. */
  all?(): Promise<string[]>;
  /** The caller's name (OAuth client or User-Agent) that usage is counted under. */
  client?: string | null;
  /**
   * The key the caller is counted on (an account, or an address without a credential): a
   * question asked again by the same asker within a few minutes (a retry) is one asking.
   */
  asker?: string | null;
};

/** The value of the scope's parameter in a tool call's arguments (validated by `withScope`). */
export function scopeValue(
  scope: WikiScope,
  args: { wiki?: unknown; space?: unknown },
): string | undefined {
  const value = scope.param ? args[scope.param.name] : undefined;
  return typeof value === "string" ? value : undefined;
}

type ScopeParam = z.ZodType<string | undefined>;

/** The scope's parameter as a zod shape: `{ wiki }`, `{ space }`, or nothing. */
function scopeShape(
  scope: WikiScope,
  on: "tool" | "search",
): { wiki?: ScopeParam; space?: ScopeParam } {
  const shape: { wiki?: ScopeParam; space?: ScopeParam } = {};
  if (scope.param) {
    shape[scope.param.name] = on === "search" ? scope.param.searchSchema : scope.param.schema;
  }
  return shape;
}

/**
 * A tool's input schema with the scope's parameter (`wiki`, `space`) added, if it has one: the
 * handler's arguments are typed from the schema, the parameter read with `scopeValue`. On
 * `search` (`on: "search"`) the parameter may be left out when the scope searches `all`.
 * Built once per parameter and schema (zod's `extend` costs a fresh stateless server on every
 * request its share): declare both at module level and the same extended schema comes back;
 * without a parameter (a wiki's own endpoint) it is `schema` itself.
 */
export function withScope<Shape extends z.ZodRawShape>(
  scope: WikiScope,
  schema: z.ZodObject<Shape>,
  on: "tool" | "search" = "tool",
) {
  const kind = on === "search" && scope.all ? "search" : "tool";
  const build = () => schema.extend(scopeShape(scope, kind));
  // Nothing to add: the declared schema itself, whose parser zod has compiled already (a fresh
  // `extend({})` per request is a new schema, compiled again on its first call).
  if (!scope.param) return schema as ReturnType<typeof build>;
  let byParam = scoped.get(scope.param);
  if (!byParam) scoped.set(scope.param, byParam = new WeakMap());
  let forSchema = byParam.get(schema);
  if (!forSchema) byParam.set(schema, forSchema = new Map());
  let extended = forSchema.get(kind);
  if (!extended) forSchema.set(kind, extended = build());
  return extended as ReturnType<typeof build>;
}

/** `withScope`'s schemas, by parameter, then by the schema extended, then by kind. */
const scoped = new WeakMap<object, WeakMap<z.ZodObject, Map<string, z.ZodObject>>>();

/** The wikis a search covers: the named one, else all the scope reaches. */
export async function searchScope(scope: WikiScope, value: string | undefined): Promise<string[]> {
  if (value !== undefined || !scope.all) return [await scope.resolve(value)];
  return await scope.all();
}

/**
 * The wiki and page reference a call means. `ref` may be a page URL of this server (as search
 * returns it; its `#anchor` becomes `#Section`), a path, or, with `wikiPrefix` (fetch ids),
 * `<wiki>/<path>`. A URL or id naming a wiki goes through the same `resolve` check as the
 * parameter, so it never opens a wiki the parameter could not. A URL or id naming a version
 * (`/w/<id>@v2/Page`, `<wiki>@v2/<path>`) gives it as `version`: a follow-up read stays in it.
 */
export async function resolvePageTarget(
  baseUrl: string,
  scope: WikiScope,
  value: string | undefined,
  ref: string,
  wikiPrefix = false,
): Promise<{ wiki: string; ref: string; version?: string }> {
  const target = await resolveTarget(baseUrl, scope, value, ref, wikiPrefix);
  const url = parsePageUrl(baseUrl, ref);
  if (url?.version) return { ...target, version: url.version };
  const slash = ref.indexOf("/");
  const [, version] = wikiPrefix && slash > 0 ? splitVersion(ref.slice(0, slash)) : [null, null];
  return version ? { ...target, version } : target;
}

async function resolveTarget(
  baseUrl: string,
  scope: WikiScope,
  value: string | undefined,
  ref: string,
  wikiPrefix: boolean,
): Promise<{ wiki: string; ref: string }> {
  const url = parsePageUrl(baseUrl, ref);
  if (url) {
    const page = url.section ? `${url.path}#${url.section}` : url.path;
    if (!scope.param) {
      const fixed = await scope.resolve(undefined);
      if (url.wiki !== fixed) {
        throw new AppError(
          "wiki_not_found",
          `This url is of wiki "${url.wiki}"; this endpoint serves wiki "${fixed}" only`,
        );
      }
      return { wiki: fixed, ref: page };
    }
    if (value !== undefined && value !== url.wiki) {
      throw new AppError(
        "bad_request",
        `This url is of "${url.wiki}", not of "${value}": leave out "${scope.param.name}" or make them agree`,
      );
    }
    return { wiki: await scope.resolve(url.wiki), ref: page };
  }
  if (!wikiPrefix || value !== undefined) return { wiki: await scope.resolve(value), ref };
  const slash = ref.indexOf("/");
  if (!scope.param) {
    const fixed = await scope.resolve(undefined);
    const own = slash > 0 && splitVersion(ref.slice(0, slash))[0].toLowerCase() === fixed;
    return { wiki: fixed, ref: own ? ref.slice(slash + 1) : ref };
  }
  if (slash <= 0) {
    try {
      return { wiki: await scope.resolve(undefined), ref };
    } catch {
      throw new AppError(
        "bad_request",
        `Pass an id from search, "<${scope.param.name}>/<page path>", or a page url, not "${ref}"`,
      );
    }
  }
  try {
    return {
      wiki: await scope.resolve(splitVersion(ref.slice(0, slash))[0].toLowerCase()),
      ref: ref.slice(slash + 1),
    };
  } catch (error) {
    // Not a wiki id: a bare page path, for a scope with a default wiki (one space).
    try {
      return { wiki: await scope.resolve(undefined), ref };
    } catch {
      throw error;
    }
  }
}
