import { z } from "zod";
import type { Db } from "../db/db.ts";
import { AppError } from "../errors.ts";
import type { WikiRow } from "../db/wiki_row.ts";
import { WIKI_ID } from "../lib/urls.ts";
import { createWiki, RESERVED_WIKI_IDS } from "./wikis.ts";
import { teamsThatCanOwnSpaces } from "../teams/teams.ts";
import { countRequest } from "../limits/mod.ts";

/**
 * Space creations one account may attempt per window. Ids are global, so a create must fail
 * on a taken id, which tells the caller the id exists; the budget makes that costly to use
 * as a probe (and a refusal past it does not depend on the id asked for).
 */
export const CREATE_ATTEMPTS = { limit: 30, windowSeconds: 3600 };

/**
 * The id a title suggests: lower case, accents dropped, every run of other characters one
 * hyphen, at most 64 characters ("Team notes – 2026" → "team-notes-2026"). Empty when the
 * title has no letter or digit of a-z, 0-9.
 */
export function idFromTitle(title: string): string {
  return title.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .replace(/[^a-z0-9]+/g, "-").slice(0, 64).replace(/^-+|-+$/g, "");
}

/**
 * The create-a-space form: `owner` is "me" or the id of a team the account manages. An id
 * left empty is made from the title (the form fills it in as the title is typed).
 */
export const newSpaceSchema = z.preprocess(
  (form) => {
    if (typeof form !== "object" || form === null) return form;
    const { id, title } = form as Record<string, unknown>;
    if (typeof id === "string" && id.trim() !== "") return form;
    return { ...form, id: typeof title === "string" ? idFromTitle(title) : "" };
  },
  z.object({
    id: z.string({ error: "Choose an id" }).trim().toLowerCase().regex(
      WIKI_ID,
      "Give the space a title, or an id of 1-64 characters of a-z, 0-9 and inner hyphens",
    ),
    title: z.string().trim().max(200, "Use at most 200 characters").default(""),
    description: z.string().trim().max(2000, "Use at most 2,000 characters").default(""),
    visibility: z.enum(["private", "public"], { error: "Choose private or public" })
      .default("private"),
    owner: z.string().trim().min(1).default("me"),
  }),
);

/** Messages for the fields of a form that was not accepted, by field name. */
export type SpaceFormErrors = Record<string, string>;

/**
 * Creates a space owned by the account or by one of its teams (as the team's owner or admin:
 * plain members cannot create spaces for a team). Field errors for what the form got wrong.
 */
export async function createSpace(
  db: Db,
  accountId: string,
  form: Record<string, unknown>,
): Promise<
  | { ok: true; wiki: WikiRow }
  | { ok: false; status: 400 | 409; errors: SpaceFormErrors }
  | { ok: false; status: 429; errors: SpaceFormErrors; retryAfter: number }
> {
  const parsed = newSpaceSchema.safeParse(form);
  if (!parsed.success) {
    const errors: SpaceFormErrors = {};
    for (const issue of parsed.error.issues) {
      errors[String(issue.path[0] ?? "form")] ??= issue.message;
    }
    return { ok: false, status: 400, errors };
  }
  const { owner, ...space } = parsed.data;
  const attempts = await countRequest(
    db,
    `space-create:${accountId}`,
    CREATE_ATTEMPTS.windowSeconds,
  );
  if (attempts.count > CREATE_ATTEMPTS.limit) {
    const elapsed = (attempts.now.getTime() - attempts.window_started_at.getTime()) / 1000;
    const retryAfter = Math.max(1, Math.ceil(CREATE_ATTEMPTS.windowSeconds - elapsed));
    return {
      ok: false,
      status: 429,
      errors: {
        id: `Too many spaces tried in the last hour: try again in ${
          Math.ceil(retryAfter / 60)
        } min`,
      },
      retryAfter,
    };
  }
  // One answer for a reserved id and a taken one, public or private: "not available".
  const unavailable = { id: `The id "${space.id}" is not available` };
  if (RESERVED_WIKI_IDS.has(space.id)) return { ok: false, status: 409, errors: unavailable };
  let ownerTeamId: string | null = null;
  if (owner !== "me") {
    const team = (await teamsThatCanOwnSpaces(db, accountId)).find((t) => t.id === owner);
    if (!team) {
      return {
        ok: false,
        status: 400,
        errors: { owner: "Choose yourself or a team where you are an owner or admin" },
      };
    }
    ownerTeamId = team.id;
  }
  try {
    const wiki = await createWiki(db, {
      ...space,
      ownerAccountId: ownerTeamId ? null : accountId,
      ownerTeamId,
    });
    return { ok: true, wiki };
  } catch (error) {
    if (error instanceof AppError && error.code === "wiki_exists") {
      return { ok: false, status: 409, errors: unavailable };
    }
    throw error;
  }
}
