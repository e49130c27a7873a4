-- A question is recorded once per asking: reloading an ask page (or retrying a call) with the
-- same question within a few minutes is the same asking. `asker` is a hash of who asked (the
-- session, the token or the address: the key their budget is counted on), kept only to
-- recognise a repeat; null when unknown (always recorded).
ALTER TABLE ask_questions ADD COLUMN asker text;
CREATE INDEX ask_questions_asker ON ask_questions (wiki_id, asker, created_at)
  WHERE asker IS NOT NULL;
