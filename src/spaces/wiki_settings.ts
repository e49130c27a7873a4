import { z } from "zod";
import type { Db } from "../db/db.ts";
import { AppError } from "../errors.ts";
import type { WikiRow } from "../db/wiki_row.ts";
import { deleteWikiRow } from "./store.ts";
import { updateWiki } from "../wikis/mod.ts";

/** The settings form of a wiki, as posted. */
export const wikiSettingsSchema = z.object({
  title: z.string().trim().min(1, "Enter a title").max(200, "Keep the title under 200 characters"),
  description: z.string().trim().max(1000, "Keep the description under 1000 characters"),
  visibility: z.enum(["public", "private"], { message: "Choose public or private" }),
  instructions: z.string().trim().max(10_000, "Keep the instructions under 10,000 characters")
    .transform((text) => text || null),
});

/** What the settings form holds (as posted, before checking). */
export type WikiSettingsForm = Record<keyof z.input<typeof wikiSettingsSchema>, string>;

/** Errors of the settings form, by field. */
export type WikiSettingsErrors = Partial<Record<keyof WikiSettingsForm, string>>;

/** Changes a wiki's title, description, visibility and instructions for assistants. */
export async function changeWikiSettings(
  db: Db,
  wikiId: string,
  form: WikiSettingsForm,
): Promise<{ ok: true; wiki: WikiRow } | { ok: false; errors: WikiSettingsErrors }> {
  const parsed = wikiSettingsSchema.safeParse(form);
  if (!parsed.success) {
    const errors: WikiSettingsErrors = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as keyof WikiSettingsForm;
      errors[field] ??= issue.message;
    }
    return { ok: false, errors };
  }
  const wiki = await updateWiki(db, wikiId, parsed.data);
  if (!wiki) throw new AppError("wiki_not_found", `Wiki "${wikiId}" not found`);
  return { ok: true, wiki };
}

/**
 * Deletes a wiki with its pages and history once its id has been typed to confirm (the
 * GitHub way: a deliberate act, not a stray click). Returns the error to show otherwise.
 */
export async function deleteWikiConfirmed(
  db: Db,
  wikiId: string,
  typed: string,
): Promise<{ ok: true } | { ok: false; error: string }> {
  if (typed.trim() !== wikiId) {
    return { ok: false, error: `Type the wiki id "${wikiId}" exactly to confirm` };
  }
  if (!await deleteWikiRow(db, wikiId)) {
    throw new AppError("wiki_not_found", `Wiki "${wikiId}" not found`);
  }
  return { ok: true };
}
