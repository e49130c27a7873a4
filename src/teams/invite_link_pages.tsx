import { CsrfField, PostButton, SelectField } from "../kit/web/form_kit.tsx";
import { Layout, type PageContext } from "../kit/web/layout.tsx";
import { INVITE_LINK_DAYS, LINK_ROLES } from "./invite_links.ts";
import type { InviteLinkRow } from "./store.ts";
import type { Role } from "../access/role.ts";

/** What each role may do, in one line: the invitation says what the invitee will get. */
export const ROLE_WORDS: Record<Role, string> = {
  owner: "manages the team, its members and its spaces",
  admin: "manages members and spaces, and writes",
  member: "reads, asks and writes the team's spaces",
  viewer: "reads, searches and asks the team's spaces, and changes nothing",
};

/** The team page's section of invitation links: make one, see the live ones, revoke. */
export function InviteLinksSection(
  props: { teamId: string; links: InviteLinkRow[]; role: Role; csrfToken: string },
) {
  const base = `/teams/${props.teamId}/links`;
  const roles = LINK_ROLES.filter((r) => r !== "admin" || props.role === "owner");
  return (
    <>
      <h2>Invite by link</h2>
      <p class="hint">
        Anyone who opens the link can sign up or sign in and join with its role, until it expires
        ({INVITE_LINK_DAYS} days) or you revoke it. Share it only with the people you mean.
      </p>
      <form method="post" action={base}>
        <CsrfField token={props.csrfToken} />
        <SelectField
          name="role"
          id="field-link-role"
          label="Role of those who join"
          value="member"
          options={roles.map((r) => ({ value: r, label: `${r}: ${ROLE_WORDS[r]}` }))}
        />
        <button type="submit">Create a link</button>
      </form>
      {props.links.length > 0 && (
        <table>
          <caption class="sr-only">Invitation links that still work</caption>
          <thead>
            <tr>
              <th scope="col">Role</th>
              <th scope="col">Expires</th>
              <th scope="col">Joined through it</th>
              <th scope="col">
                <span class="sr-only">Revoke</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {props.links.map((link) => (
              <tr>
                <td>
                  {link.role}
                  {link.email && <span class="hint">, emailed to {link.email} (works once)</span>}
                </td>
                <td>{link.expires_at.toISOString().slice(0, 10)}</td>
                <td>{link.uses}</td>
                <td>
                  <PostButton
                    action={`${base}/${link.id}/revoke`}
                    label="Revoke link"
                    csrfToken={props.csrfToken}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

/** The link, shown once right after it is made, with a copy button. */
export function InviteLinkCreatedPage(
  props: PageContext & { teamId: string; teamName: string; url: string; link: InviteLinkRow },
) {
  return (
    <Layout title="Invitation link created" {...props}>
      <p class="notice" role="status">
        Link created for team {props.teamName}: whoever opens it joins as{" "}
        <strong>{props.link.role}</strong> ({ROLE_WORDS[props.link.role]}) until{" "}
        {props.link.expires_at.toISOString().slice(0, 10)}.
      </p>
      <h2>Invitation link</h2>
      <pre><code id="invite-url">{props.url}</code></pre>
      <button type="button" class="copy" data-copy="invite-url" hidden>Copy link</button>
      <p class="hint">
        It is shown this once; the service keeps only a fingerprint of it. Revoke it from the team
        page if it reaches the wrong person.
      </p>
      <p>
        <a href={`/teams/${props.teamId}`}>Back to the team</a>
      </p>
      <script src="/assets/copy.js" defer></script>
    </Layout>
  );
}

/** What a person who opens a link sees: the team and role, then sign up, sign in or join. */
export function InvitePage(
  props: PageContext & {
    secret: string;
    teamName?: string;
    role?: Role;
    refusal?: string;
    member?: boolean;
  },
) {
  const here = `/invite/${props.secret}`;
  if (props.refusal) {
    return (
      <Layout title="Invitation" {...props}>
        <p class="alert" role="alert">{props.refusal}</p>
      </Layout>
    );
  }
  return (
    <Layout title={`Join ${props.teamName}`} {...props}>
      <p>
        You are invited to the team <strong>{props.teamName}</strong> as{" "}
        <strong>{props.role}</strong>: a {props.role} {ROLE_WORDS[props.role!]}.
      </p>
      {props.member
        ? <p class="notice" role="status">You are already a member of this team.</p>
        : props.account
        ? (
          <form method="post" action={here}>
            <CsrfField token={props.csrfToken!} />
            <button type="submit">Join {props.teamName} as {props.account.name}</button>
          </form>
        )
        : (
          <p>
            <a class="button" href={`/signup?next=${encodeURIComponent(here)}`}>
              Sign up to join
            </a>{" "}
            or <a href={`/signin?next=${encodeURIComponent(here)}`}>sign in</a>{" "}
            if you have an account.
          </p>
        )}
    </Layout>
  );
}
