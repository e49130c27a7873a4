-- The page paths a link's target key may reach besides its own (src/markdown/paths.ts,
-- `keySuffixes`): each tail of the key after a `/`, longest first, down to two segments
-- (`running-a-nats-service/configuration/logging` → `configuration/logging`). One definition for
-- the two statements that resolve links by it: `resolveLinksOfPages` (src/pages/store.ts), which
-- stores where links point, and `selectLinkTargets` (src/spaces/store.ts), which reads them.
CREATE FUNCTION link_key_suffixes(key text) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ARRAY(
    SELECT array_to_string(s.parts[i:], '/')
    FROM (SELECT string_to_array(key, '/') AS parts) s,
      generate_series(2, cardinality(s.parts) - 1) AS i
    ORDER BY i)
$$;
