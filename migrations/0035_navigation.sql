-- A space's navigation as data: the order of its pages and folders, folder titles and landing
-- pages, the nav files its source came with (SUMMARY.md, mkdocs.yml, sidebars.js, docs.json)
-- kept as written for the export, and the published site's look (title, logo, accent colour,
-- header links). One JSON document per space, read whole with the page tree.
CREATE TABLE wiki_navs (
  wiki_id text PRIMARY KEY REFERENCES wikis(id) ON DELETE CASCADE,
  nav text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
