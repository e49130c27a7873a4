-- Usage pages group confirmed uses by client and by page over time.
CREATE INDEX page_uses_client ON page_uses (wiki_id, client_name, created_at);
