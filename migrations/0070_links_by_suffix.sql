-- A link written from the root of the site a wiki was imported from names its page with the
-- folder the import started in (`running-a-nats-service/configuration/logging` for the page
-- `configuration/logging`): it reaches the page whose key ends its own (src/pages/store.ts,
-- `resolveLinksOfPages`). A write of that page looks for such links among the wiki's links that
-- reach no page yet, which this index holds apart from the rest.
CREATE INDEX links_unresolved ON links (wiki_id) WHERE to_page_id IS NULL;

-- Links stored before this rule reach their page now, not at the next write of that page.
UPDATE links l SET to_page_id = m.page_id
FROM (
  SELECT DISTINCT ON (u.wiki_id, u.target_key) u.wiki_id, u.target_key, p.id AS page_id
  FROM (
    SELECT DISTINCT wiki_id, target_key FROM links
    WHERE to_page_id IS NULL AND strpos(target_key, '/') > 0
  ) u
  CROSS JOIN LATERAL generate_series(2, cardinality(string_to_array(u.target_key, '/')) - 1) AS i
  JOIN pages p ON p.wiki_id = u.wiki_id
    AND p.path_key = array_to_string((string_to_array(u.target_key, '/'))[i:], '/')
  ORDER BY u.wiki_id, u.target_key, i
) m
WHERE l.to_page_id IS NULL AND l.wiki_id = m.wiki_id AND l.target_key = m.target_key;
