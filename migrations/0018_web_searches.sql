-- Searches made in the web app (a wiki's search page, the signed-in search across spaces) are
-- listed on the usage page beside those over MCP and REST.
ALTER TABLE search_queries DROP CONSTRAINT search_queries_via_check;
ALTER TABLE search_queries ADD CONSTRAINT search_queries_via_check
  CHECK (via IN ('mcp', 'rest', 'web'));
