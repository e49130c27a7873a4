/**
 * A page as stored: the row the pages feature writes and the features above it read (a
 * version's page has its shape too), so its type sits below the features, beside the wiki's.
 */
export type PageRow = {
  id: number;
  wiki_id: string;
  path: string;
  path_key: string;
  name_key: string;
  title: string;
  markdown: string;
  revision: number;
  content_hash: string;
  created_at: Date;
  updated_at: Date;
};
