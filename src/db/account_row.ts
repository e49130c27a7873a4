/**
 * An account as stored, without its secrets: the row the accounts feature writes and the
 * sessions and the web kit's layout name (the signed-in person), so its type sits below the
 * features, beside the wiki's and the page's.
 */
export type AccountRow = { id: string; email: string; name: string; created_at: Date };
