-- Sharing as a docs team expects (issue 30): a read-only role, a space shared with one person,
-- and invitations by a link.
--
-- `viewer`: reads, searches and asks a space; writes nothing (pages, files, proposals'
-- acceptance, tokens that propose). A team role like the others, and the role of a share.
ALTER TABLE memberships DROP CONSTRAINT memberships_role_check;
ALTER TABLE memberships ADD CONSTRAINT memberships_role_check
  CHECK (role IN ('owner', 'admin', 'member', 'viewer'));
ALTER TABLE team_invitations DROP CONSTRAINT team_invitations_role_check;
ALTER TABLE team_invitations ADD CONSTRAINT team_invitations_role_check
  CHECK (role IN ('owner', 'admin', 'member', 'viewer'));

-- One space shared with one person, by email, as a viewer or a member (who may write), by its
-- owners and admins. The share reaches whichever account has that email, now or after it signs
-- up (as team invitations do), so sharing tells nobody whether an account exists. Gone with
-- the space.
CREATE TABLE space_shares (
  wiki_id text NOT NULL REFERENCES wikis (id) ON DELETE CASCADE,
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('viewer', 'member')),
  shared_by text REFERENCES accounts (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX space_shares_key ON space_shares (wiki_id, lower(email));
CREATE INDEX space_shares_email ON space_shares (lower(email));

-- A link that signs a person into a team with a role: copyable, expiring, revocable. Only the
-- SHA-256 of its secret is kept, as for tokens; each use is one more member, until it expires
-- or is revoked.
CREATE TABLE team_invite_links (
  id text PRIMARY KEY,
  team_id text NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('admin', 'member', 'viewer')),
  secret_hash text NOT NULL UNIQUE,
  created_by text REFERENCES accounts (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  uses integer NOT NULL DEFAULT 0
);
CREATE INDEX team_invite_links_team ON team_invite_links (team_id);
