/**
 * A wiki as stored: the row every feature's rows point at (pages, tokens, shares, versions…),
 * so its type sits below the features, where the access policy and the wikis feature both
 * name it.
 */
export type WikiRow = {
  id: string;
  title: string;
  description: string;
  visibility: "public" | "private";
  owner_account_id: string | null;
  owner_team_id: string | null;
  instructions: string | null;
  created_at: Date;
  updated_at: Date;
};

/** A wiki with the figures a listing shows. */
export type WikiSummaryRow = WikiRow & { page_count: number };
