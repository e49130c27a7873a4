import type { Db } from "../db/db.ts";
import {
  deleteVersion,
  listVersions,
  publishVersion,
  renameVersion,
  setDefaultVersion,
  setVersionPattern,
} from "./versions.ts";

/**
 * The version commands of `deno task admin`: list, publish, rename, delete, choose the default,
 * set the Git pattern. `operands` reads the command's positional arguments (all required).
 */
export function versionCommands(
  db: Db,
  operands: (...names: string[]) => string[],
  makeDefault: boolean,
): Record<string, () => Promise<string>> {
  return {
    "versions": async () => {
      const [space] = operands("SPACE") as [string];
      const list = await listVersions(db, space);
      const lines = list.versions.map((v) =>
        [v.name, `${v.pages} pages`, v.created_at, v.source_ref ?? "-", v.default ? "default" : ""]
          .join("\t").trimEnd()
      );
      return [...lines, `default: ${list.default}`].join("\n");
    },
    "publish-version": async () => {
      const [space, name] = operands("SPACE", "NAME") as [string, string];
      const made = await publishVersion(db, space, { name }, null);
      if (makeDefault) await setDefaultVersion(db, space, made.name);
      return `published ${made.name} (${made.pages} pages)${makeDefault ? ", the default" : ""}`;
    },
    "rename-version": async () => {
      const [space, from, to] = operands("SPACE", "FROM", "TO") as [string, string, string];
      await renameVersion(db, space, from, to);
      return `renamed ${from} to ${to}`;
    },
    "delete-version": async () => {
      const [space, name] = operands("SPACE", "NAME") as [string, string];
      await deleteVersion(db, space, name);
      return `deleted ${name}`;
    },
    "default-version": async () => {
      const [space, name] = operands("SPACE", "NAME") as [string, string];
      await setDefaultVersion(db, space, name);
      return `reads of ${space} now get ${name}`;
    },
    "version-pattern": async () => {
      const [space, pattern] = operands("SPACE", "PATTERN") as [string, string];
      await setVersionPattern(db, space, pattern === "none" ? null : pattern);
      return pattern === "none"
        ? "no refs are published"
        : `syncs publish refs matching ${pattern}`;
    },
  };
}
