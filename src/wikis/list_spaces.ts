import { z } from "zod";
import { reachableSpaces } from "../access/access_policy.ts";
import type { Credential } from "../access/credential.ts";
import type { Deps } from "../deps.ts";
import { wikiUrl } from "../lib/urls.ts";
import { LATEST, versionNamesOf } from "../versions/versions.ts";

/** The spaces a credential reaches (MCP `my_spaces`, REST `GET /spaces`). */
export const spaceListSchema = z.object({
  spaces: z.array(z.object({
    id: z.string(),
    title: z.string(),
    description: z.string(),
    visibility: z.enum(["public", "private"]),
    role: z.enum(["owner", "admin", "member", "viewer"]),
    pages: z.number().int(),
    updated_at: z.string(),
    url: z.string(),
    versions: z.array(z.string()).describe(
      'The versions a read can name (`version`), oldest first; "latest" is the live pages',
    ),
    default_version: z.string().describe("The version reads get when they name none"),
  })),
});
export type SpaceList = z.infer<typeof spaceListSchema>;

/** Lists the credential's spaces with the account's role in each. */
export async function listSpaces(
  deps: Pick<Deps, "db" | "config">,
  credential: Credential,
): Promise<SpaceList> {
  const spaces = await reachableSpaces(deps.db, credential);
  const versions = await versionNamesOf(deps.db, spaces.map((s) => s.id));
  return {
    spaces: spaces.map((s) => ({
      id: s.id,
      title: s.title,
      description: s.description,
      visibility: s.visibility,
      role: s.role,
      pages: s.page_count,
      updated_at: s.updated_at.toISOString(),
      url: wikiUrl(deps.config.baseUrl, s.id),
      ...(versions.get(s.id) ?? { versions: [LATEST], default_version: LATEST }),
    })),
  };
}
