-- The offline embedder's vectors are no longer stored or read: hybrid search with it is the
-- lexical leg alone (docs/decisions.md, Retrieval). Its HNSW indexes go, with their records,
-- and its vectors are cleared, so its chunks count as written without vectors. A real model's
-- vectors and indexes are untouched.
DO $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT index_name FROM vector_indexes WHERE embedder LIKE 'offline:%' LOOP
    EXECUTE format('DROP INDEX IF EXISTS %I', r.index_name);
  END LOOP;
END
$$;
DELETE FROM vector_indexes WHERE embedder LIKE 'offline:%';
UPDATE chunks SET embedder = NULL, embedding = NULL WHERE embedder LIKE 'offline:%';

-- Postings leave with their chunks through one statement-level trigger instead of a foreign
-- key: the key's check ran once per posting inserted (a chunk has ~60), a quarter of the time
-- of indexing a batch. Every path that deletes chunks (a page rewritten or deleted, a wiki
-- deleted, by cascade) fires the trigger once per statement, with the deleted rows.
ALTER TABLE chunk_terms DROP CONSTRAINT IF EXISTS chunk_terms_chunk_id_fkey;
CREATE FUNCTION chunks_delete_postings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM chunk_terms WHERE chunk_id IN (SELECT id FROM gone);
  RETURN NULL;
END
$$;
CREATE TRIGGER chunks_delete_postings AFTER DELETE ON chunks
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION chunks_delete_postings();
