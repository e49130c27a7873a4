import { Alert, CsrfField, Field, SelectField } from "../kit/web/form_kit.tsx";
import { Layout, type PageContext } from "../kit/web/layout.tsx";
import { manages, type Role } from "../access/role.ts";
import type { InvitationRow, InviteLinkRow, MemberRow, TeamRow } from "./store.ts";
import { InviteLinksSection } from "./invite_link_pages.tsx";
import { CreateTeamForm } from "./create_team_form.tsx";

const ROLES: Role[] = ["owner", "admin", "member", "viewer"];

/** The roles a member may give: admins manage members and admins; only owners make owners. */
function grantableBy(role: Role): Role[] {
  return role === "owner" ? ROLES : ROLES.filter((r) => r !== "owner");
}

/** A team's page for one of its members: members and roles, and what the viewer may change. */
export function TeamPage(
  props: PageContext & {
    team: TeamRow;
    members: MemberRow[];
    role: Role;
    invitations: InvitationRow[];
    /** The live invitation links (managers only). */
    links?: InviteLinkRow[];
    /** The spaces the team owns (absent where a page has not loaded them). */
    spaces?: { id: string; title: string; visibility: "public" | "private" }[];
    error?: string | undefined;
    notice?: string | undefined;
    inviteEmail?: string;
    /** An emailed invitation's link whose email could not be sent: shown once, to pass on. */
    unsentLink?: string | undefined;
    /** Whether invitations go out by email (SMTP is configured). */
    emails?: boolean;
  },
) {
  const me = props.account!;
  const manager = manages(props.role);
  const base = `/teams/${props.team.id}`;
  return (
    <Layout title={props.team.name} account={me} csrfToken={props.csrfToken}>
      <p>
        Team id <code>{props.team.id}</code>; your role: {props.role}.
      </p>
      <Alert message={props.error} />
      {props.unsentLink && (
        <>
          <pre><code id="unsent-invite-url">{props.unsentLink}</code></pre>
          <button type="button" class="copy" data-copy="unsent-invite-url" hidden>Copy link</button>
          <script src="/assets/copy.js" defer></script>
        </>
      )}
      {props.notice && <p class="notice" role="status">{props.notice}</p>}
      <h2>Spaces</h2>
      {(props.spaces ?? []).length === 0
        ? (
          <p class="hint">
            No spaces yet: <a href="/account">create one</a> with this team as its owner.
          </p>
        )
        : (
          <ul>
            {props.spaces!.map((s) => (
              <li>
                <a href={`/w/${s.id}`}>{s.title}</a> <code>{s.id}</code>
                {s.visibility === "private" && <span class="badge">Private</span>}
              </li>
            ))}
          </ul>
        )}
      <h2>Members</h2>
      <MemberTable
        members={props.members}
        role={props.role}
        myId={me.id}
        base={base}
        csrfToken={props.csrfToken}
      />
      {manager && (
        <Invitations
          invitations={props.invitations}
          role={props.role}
          base={base}
          csrfToken={props.csrfToken}
          inviteEmail={props.inviteEmail}
          emails={props.emails ?? false}
        />
      )}
      {manager && (
        <InviteLinksSection
          teamId={props.team.id}
          links={props.links ?? []}
          role={props.role}
          csrfToken={props.csrfToken}
        />
      )}
      <h2>Leave</h2>
      <form method="post" action={`${base}/leave`}>
        <CsrfField token={props.csrfToken} />
        <p class="hint">
          You lose access to the team's spaces, and your space tokens for them are revoked. A team's
          last owner must make someone else owner first.
        </p>
        <label>
          <input type="checkbox" name="confirm" value="yes" required /> Yes, I leave{" "}
          {props.team.name}
        </label>
        <button type="submit" class="danger">Leave team</button>
      </form>
    </Layout>
  );
}

/** The members with their roles, and for managers changing a role and removing a member. */
function MemberTable(
  props: { members: MemberRow[]; role: Role; myId: string; base: string; csrfToken: string },
) {
  const manager = manages(props.role);
  const grantable = grantableBy(props.role);
  const base = props.base;
  return (
    <table class="members">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Email</th>
          <th scope="col">Role</th>
          {manager && <th scope="col">Remove</th>}
        </tr>
      </thead>
      <tbody>
        {props.members.map((m) => (
          <tr>
            <td class="name">{m.name}</td>
            <td class="email">{m.email}</td>
            <td class="role">
              {manager && (props.role === "owner" || m.role !== "owner")
                ? (
                  <form method="post" action={`${base}/members/${m.account_id}/role`}>
                    <CsrfField token={props.csrfToken} />
                    <label class="sr-only" for={`role-${m.account_id}`}>
                      Role of {m.name || m.email}
                    </label>
                    <select id={`role-${m.account_id}`} name="role">
                      {grantable.map((r) => <option value={r} selected={r === m.role}>{r}</option>)}
                    </select>
                    <button type="submit" class="secondary">Change role</button>
                  </form>
                )
                : m.role}
            </td>
            {manager && (
              <td class="remove">
                {m.account_id !== props.myId && (props.role === "owner" || m.role !== "owner") && (
                  <form method="post" action={`${base}/members/${m.account_id}/remove`}>
                    <CsrfField token={props.csrfToken} />
                    <label>
                      <input type="checkbox" name="confirm" value="yes" required /> Yes, remove{" "}
                      {m.name || m.email}
                    </label>
                    <button type="submit" class="danger">Remove</button>
                  </form>
                )}
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** For managers: the pending invitations, and the form that invites a member. */
function Invitations(
  props: {
    invitations: InvitationRow[];
    role: Role;
    base: string;
    csrfToken: string;
    inviteEmail?: string | undefined;
    emails: boolean;
  },
) {
  const grantable = grantableBy(props.role);
  const base = props.base;
  return (
    <>
      {props.invitations.length > 0 && (
        <>
          <h2>Pending invitations</h2>
          <ul>
            {props.invitations.map((i) => (
              <li>
                {i.email} ({i.role})
                <form method="post" action={`${base}/invitations/cancel`} class="inline">
                  <CsrfField token={props.csrfToken} />
                  <input type="hidden" name="email" value={i.email} />
                  <button type="submit">Withdraw</button>
                </form>
              </li>
            ))}
          </ul>
        </>
      )}
      <h2>Invite a member</h2>
      <form method="post" action={`${base}/members`}>
        <CsrfField token={props.csrfToken} />
        <Field
          name="email"
          label={props.emails ? "Email" : "Email of their account"}
          type="email"
          required
          hint={props.emails
            ? "They get an email with a link that signs them up (or in) and joins them; the invitation also waits on their account page"
            : "They join when they accept the invitation on their account page (after signing up with this email, if they have no account yet)"}
          value={props.inviteEmail}
        />
        <SelectField
          name="role"
          id="field-invite-role"
          label="Role"
          value="member"
          options={grantable.map((r) => ({ value: r, label: r }))}
        />
        <button type="submit">Invite</button>
      </form>
    </>
  );
}

/** The team form alone, with the reason it was not accepted. */
export function CreateTeamPage(
  props: PageContext & { error: string; values: { id?: string; name?: string } },
) {
  return (
    <Layout title="Create a team" account={props.account} csrfToken={props.csrfToken}>
      <Alert message={props.error} />
      <CreateTeamForm csrfToken={props.csrfToken} values={props.values} />
    </Layout>
  );
}
