-- An invitation emailed to one address carries its own link: it works once, and may make an
-- owner (an owner invites an owner by name, and the email names them). The index counts what
-- one account has emailed in the last hour (INVITE_EMAILS_PER_HOUR).
ALTER TABLE team_invite_links ADD COLUMN email text;
ALTER TABLE team_invite_links DROP CONSTRAINT team_invite_links_role_check;
ALTER TABLE team_invite_links ADD CONSTRAINT team_invite_links_role_check
  CHECK (role IN ('admin', 'member', 'viewer') OR (role = 'owner' AND email IS NOT NULL));
CREATE INDEX team_invite_links_emailed ON team_invite_links (created_by, created_at)
  WHERE email IS NOT NULL;
