import { z } from "zod";
import type { Db } from "../db/db.ts";
import { AppError } from "../errors.ts";
import {
  deleteVersionRow,
  insertVersion,
  selectVersionChoice,
  selectVersionNames,
  selectVersions,
  updateDefaultVersion,
  updateVersionName,
  updateVersionPattern,
} from "./store.ts";

/** The name of the live pages, as a version: what a read gets when the space has no default. */
export const LATEST = "latest";

/** A version's name: no `/` or `@`, so that `/w/<id>@<name>/Page` and fetch ids parse. */
export const versionName = z.string().regex(
  /^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/,
  "A version name is 1-64 letters, digits, `.`, `_`, `+` or `-`, starting with a letter or digit",
).refine((n) => n.toLowerCase() !== LATEST, `"${LATEST}" names the live pages`);

/** The `version` parameter of every read (MCP tools, REST reads and ask). */
export const versionParam = z.string().min(1).max(64).optional().describe(
  'The version of the wiki to read, e.g. "v2.1" (list_wikis / my_spaces list them); "latest" ' +
    "is the live pages. Default: the wiki's default version. Page ids and urls from a versioned " +
    "result carry their version",
);

/** A version a read is answered from; null stands for the live pages. */
export type Version = {
  id: number;
  wikiId: string;
  name: string;
  createdAt: Date;
  isDefault: boolean;
};

/** A version as listed. */
export const versionSchema = z.object({
  name: z.string(),
  pages: z.number().int(),
  created_at: z.string(),
  source_ref: z.string().nullable().describe("The Git tag or branch it was published from"),
  source_commit: z.string().nullable(),
  default: z.boolean(),
});

/** A space's versions and its default ("latest" when the owner chose none). */
export const versionListSchema = z.object({
  wiki: z.string(),
  default: z.string(),
  versions: z.array(versionSchema),
});
export type VersionList = z.infer<typeof versionListSchema>;

/**
 * The version a read of `wikiId` is answered from: `name` (case-insensitive), or the wiki's
 * default when none is named; null for the live pages ("latest", or no default). An unknown
 * name fails with the versions there are: never a silent answer from another version.
 */
export async function resolveVersion(
  db: Db,
  wikiId: string,
  name?: string | null,
): Promise<Version | null> {
  return (await resolveVersions(db, [wikiId], name)).get(wikiId) ?? null;
}

/** `resolveVersion` for several wikis in one statement (a hub search); live wikis are left out. */
export async function resolveVersions(
  db: Db,
  wikiIds: string[],
  name?: string | null,
): Promise<Map<string, Version>> {
  const asked = askedVersion(wikiIds, name);
  const out = new Map<string, Version>();
  if ((name?.trim() && asked === null) || wikiIds.length === 0) return out;
  for (const r of await selectVersionChoice(db, wikiIds, asked)) {
    if (r.id === null) {
      if (asked) throw versionNotFound(r.wiki_id, asked, r.names);
      continue;
    }
    out.set(r.wiki_id, {
      id: Number(r.id),
      wikiId: r.wiki_id,
      name: r.name!,
      createdAt: r.created_at!,
      isDefault: r.default_name === r.name,
    });
  }
  return out;
}

/**
 * The version name a read asks for, to be looked up: null for none and for the live pages
 * ("latest"). A name needs one wiki to be read in.
 */
export function askedVersion(wikiIds: string[], name?: string | null): string | null {
  const asked = name?.trim() || null;
  if (asked === null || asked.toLowerCase() === LATEST) return null;
  if (wikiIds.length > 1) {
    throw new AppError("bad_request", `Name one wiki to read version "${asked}" of`);
  }
  return asked;
}

/** The error of an unknown version: it lists the versions the wiki has. */
function versionNotFound(wikiId: string, name: string, names: string[]): AppError {
  const all = [...names, LATEST];
  return new AppError(
    "version_not_found",
    `Version "${name}" not found in wiki "${wikiId}"; its versions: ${
      all.map((n) => `"${n}"`).join(", ")
    }`,
    { versions: all, suggestions: all },
  );
}

/** Publishes the live pages of a wiki as a new version. */
export async function publishVersion(
  db: Db,
  wikiId: string,
  input: { name: string; sourceRef?: string | null; sourceCommit?: string | null },
  createdBy: string | null,
): Promise<z.infer<typeof versionSchema>> {
  const name = parseName(input.name);
  const row = await insertVersion(db, { wikiId, ...input, name }, createdBy);
  if (!row) throw new AppError("version_exists", `Version "${name}" already exists in "${wikiId}"`);
  return {
    name: row.name,
    pages: row.pages,
    created_at: row.created_at.toISOString(),
    source_ref: row.source_ref,
    source_commit: row.source_commit,
    default: false,
  };
}

/** The wiki's versions, newest first, and its default. */
export async function listVersions(db: Db, wikiId: string): Promise<VersionList> {
  const [rows, [choice]] = await Promise.all([
    selectVersions(db, wikiId),
    selectVersionNames(db, [wikiId]),
  ]);
  const fallback = choice?.default_name ?? LATEST;
  return {
    wiki: wikiId,
    default: fallback,
    versions: rows.map((r) => ({
      name: r.name,
      pages: r.pages,
      created_at: r.created_at.toISOString(),
      source_ref: r.source_ref,
      source_commit: r.source_commit,
      default: r.name === fallback,
    })),
  };
}

/** Each wiki's version names (oldest first) and default, for `list_wikis` and `my_spaces`. */
export async function versionNamesOf(
  db: Db,
  wikiIds: string[],
): Promise<Map<string, { versions: string[]; default_version: string }>> {
  const rows = await selectVersionNames(db, wikiIds);
  return new Map(rows.map((r) => [r.wiki_id, {
    versions: [...r.names, LATEST],
    default_version: r.default_name ?? LATEST,
  }]));
}

/** Renames a version (its pages and links to it by default stay). */
export async function renameVersion(db: Db, wikiId: string, from: string, to: string) {
  const version = await requireNamed(db, wikiId, from);
  const name = parseName(to);
  if (!await updateVersionName(db, version.id, name)) {
    throw new AppError("version_exists", `Version "${name}" already exists in "${wikiId}"`);
  }
}

/** Deletes a version; the default is refused (choose another default first). */
export async function deleteVersion(db: Db, wikiId: string, name: string): Promise<void> {
  const version = await requireNamed(db, wikiId, name);
  if (!await deleteVersionRow(db, version.id)) {
    throw new AppError("default_version", defaultVersionRefusal(wikiId, version.name));
  }
}

/** Why the default version cannot be deleted, and what to do first. */
export function defaultVersionRefusal(wikiId: string, name: string): string {
  return `Version "${name}" is the default of "${wikiId}": make another version (or "${LATEST}") the default first`;
}

/** Makes a version (or "latest", the live pages) what reads get when they name none. */
export async function setDefaultVersion(db: Db, wikiId: string, name: string): Promise<void> {
  if (name.trim().toLowerCase() === LATEST) return await updateDefaultVersion(db, wikiId, null);
  const version = await requireNamed(db, wikiId, name);
  await updateDefaultVersion(db, wikiId, version.id);
}

async function requireNamed(db: Db, wikiId: string, name: string): Promise<Version> {
  if (name.trim().toLowerCase() === LATEST) {
    throw new AppError("bad_request", `"${LATEST}" is the live pages, not a published version`);
  }
  const version = await resolveVersion(db, wikiId, name);
  if (!version) throw new AppError("version_not_found", `Version "${name}" not found`);
  return version;
}

function parseName(name: string): string {
  const parsed = versionName.safeParse(name.trim());
  if (!parsed.success) throw new AppError("bad_request", parsed.error.issues[0]!.message);
  return parsed.data;
}

/** Sets the Git refs a sync publishes as versions (`v*`: tags; `branches/release-*`); null: none. */
export async function setVersionPattern(
  db: Db,
  wikiId: string,
  pattern: string | null,
): Promise<void> {
  const clean = pattern?.trim() || null;
  if (clean !== null && !/^[A-Za-z0-9._+*/-]{1,200}$/.test(clean)) {
    throw new AppError(
      "bad_request",
      `Pattern "${clean}" may hold letters, digits, ., _, +, -, / and *`,
    );
  }
  await updateVersionPattern(db, wikiId, clean);
}
