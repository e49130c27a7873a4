-- Team invitations: joining a team needs the invitee's consent. An owner or admin invites an
-- email; whoever signs in with that email (now or after signing up later) sees the invitation
-- on their account page and accepts or declines it. Nothing of the team reaches them before.
CREATE TABLE team_invitations (
  team_id text NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
  invited_by text REFERENCES accounts (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL DEFAULT now() + interval '30 days'
);
CREATE UNIQUE INDEX team_invitations_key ON team_invitations (team_id, lower(email));
CREATE INDEX team_invitations_email ON team_invitations (lower(email));

-- What belongs to a space goes with it, whichever way it goes (its settings page, its owning
-- account or team deleted): its audit rows (they have no foreign key, see 0008) and its id in
-- OAuth grants and codes, so a space made later with the same id inherits nothing. Page uses,
-- usage counters and space tokens already cascade.
CREATE FUNCTION forget_deleted_wiki() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM audit_events WHERE wiki_id = OLD.id;
  UPDATE oauth_grants SET space_ids = array_remove(space_ids, OLD.id) WHERE OLD.id = ANY (space_ids);
  UPDATE oauth_codes SET space_ids = array_remove(space_ids, OLD.id) WHERE OLD.id = ANY (space_ids);
  RETURN OLD;
END
$$;
CREATE TRIGGER wikis_forget_deleted AFTER DELETE ON wikis
  FOR EACH ROW EXECUTE FUNCTION forget_deleted_wiki();
