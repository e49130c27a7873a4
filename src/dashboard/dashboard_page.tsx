import { Alert, CsrfField, Field, SelectField } from "../kit/web/form_kit.tsx";
import type { InvitationRow } from "../teams/invitations.ts";
import type { Role } from "../access/role.ts";
import { canOwnSpaces, type TeamRow } from "../teams/teams.ts";
import { CreateTeamForm } from "../teams/create_team_form.tsx";
import { Layout, type PageContext } from "../kit/web/layout.tsx";
import { SearchAllForm } from "./search_all_page.tsx";
import type { SpaceFormErrors } from "../wikis/create_space.ts";
import type { WikiSummaryRow } from "../db/wiki_row.ts";

type SpaceValues = { id?: string; title?: string; description?: string; visibility?: string };

/**
 * The signed-in home: the account's spaces (with where to read, connect and watch usage),
 * a form to create one, and the teams.
 */
export function DashboardPage(
  props: PageContext & {
    spaces: (WikiSummaryRow & { role: Role })[];
    teams: (TeamRow & { role: Role })[];
    invitations?: InvitationRow[];
    errors?: SpaceFormErrors;
    values?: SpaceValues & { owner?: string };
  },
) {
  return (
    <Layout title="Dashboard" account={props.account} csrfToken={props.csrfToken}>
      <p>
        Welcome, {props.account!.name} <span class="hint">({props.account!.email})</span>.
      </p>
      {(props.invitations ?? []).length > 0 && <Invitations {...props} />}
      <h2>Your spaces</h2>
      {props.spaces.length > 0 && <SearchAllForm />}
      <SpaceTable spaces={props.spaces} />
      <h2 id="new-space">Create a space</h2>
      <CreateSpaceForm {...props} />
      <h2 id="teams">Your teams</h2>
      {props.teams.length === 0 ? <p>No teams yet.</p> : (
        <ul>
          {props.teams.map((t) => (
            <li>
              <a href={`/teams/${t.id}`}>{t.name}</a> ({t.role})
            </li>
          ))}
        </ul>
      )}
      <h3>Create a team</h3>
      <CreateTeamForm csrfToken={props.csrfToken} />
      <h2>Access</h2>
      <ul>
        <li>
          <a href="/connect">Connect an assistant</a>: configuration for Claude, ChatGPT, Cursor, VS
          Code and others.
        </li>
        <li>
          <a href="/account/tokens">Tokens</a>: account and space tokens for assistants and
          programs.
        </li>
        <li>
          <a href="/account/apps">Connected apps</a>: the assistants you signed in with OAuth.
        </li>
        <li>
          <a href="/account/settings">Account settings</a>: your name and password.
        </li>
      </ul>
    </Layout>
  );
}

/** The account's spaces, each with its visibility, the account's role, its pages and links. */
function SpaceTable({ spaces }: { spaces: (WikiSummaryRow & { role: Role })[] }) {
  return (
    <>
      {spaces.length === 0
        ? <p>No spaces yet. Create one below, then connect an assistant to it.</p>
        : (
          <table>
            <thead>
              <tr>
                <th>Space</th>
                <th>Visibility</th>
                <th>Role</th>
                <th>Pages</th>
                <th>
                  <span class="sr-only">Links</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {spaces.map((s) => (
                <tr>
                  <td>
                    <a href={`/w/${s.id}`}>{s.title}</a> <code>{s.id}</code>
                  </td>
                  <td>{s.visibility}</td>
                  <td>{s.role}</td>
                  <td>{s.page_count}</td>
                  <td>
                    <a href={`/w/${s.id}/-/connect`} aria-label={`Connect ${s.title}`}>connect</a>
                    {" · "}
                    <a href={`/w/${s.id}/-/usage`} aria-label={`Usage of ${s.title}`}>usage</a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
    </>
  );
}

function CreateSpaceForm(
  props: PageContext & {
    teams: (TeamRow & { role: Role })[];
    invitations?: InvitationRow[];
    errors?: SpaceFormErrors;
    values?: SpaceValues & { owner?: string };
  },
) {
  const errors = props.errors ?? {};
  const values = props.values ?? {};
  const teams = props.teams.filter((t) => canOwnSpaces(t.role));
  return (
    <form method="post" action="/spaces" aria-labelledby="new-space">
      <CsrfField token={props.csrfToken} />
      <Alert message={errors.form} />
      <Field
        name="title"
        label="Title"
        value={values.title}
        error={errors.title}
        required
      />
      <Field
        name="id"
        label="Space id"
        hint="In its addresses, made from the title: change it if you like (a-z, 0-9 and inner hyphens, up to 64)"
        value={values.id}
        error={errors.id}
      />
      <Field
        name="description"
        label="Description"
        hint="One sentence; assistants read it to decide when to search this space"
        value={values.description}
        error={errors.description}
      />
      <SelectField
        name="visibility"
        label="Visibility"
        value={values.visibility === "public" ? "public" : "private"}
        options={[
          { value: "private", label: "Private: members only" },
          { value: "public", label: "Public: anyone can read it, and it is listed on the hub" },
        ]}
      />
      <SelectField
        name="owner"
        label="Owner"
        value={values.owner}
        error={errors.owner}
        options={[
          { value: "me", label: "Me" },
          ...teams.map((t) => ({ value: t.id, label: `Team ${t.name}` })),
        ]}
      />
      <button type="submit">Create space</button>
      <script src="/assets/space_id.js" defer></script>
    </form>
  );
}

/** Account settings: the display name, and the password (which signs out other sessions). */
export function SettingsPage(
  props: PageContext & { errors?: Record<string, string>; saved?: string },
) {
  const errors = props.errors ?? {};
  return (
    <Layout title="Account settings" account={props.account} csrfToken={props.csrfToken}>
      {props.saved && <p class="notice" role="status">{props.saved}</p>}
      <p>
        Signed in as <strong>{props.account!.email}</strong>.
      </p>
      <h2 id="name-heading">Name</h2>
      <form method="post" action="/account/settings/name" aria-labelledby="name-heading">
        <CsrfField token={props.csrfToken} />
        <Field
          name="name"
          label="Name"
          value={props.account!.name}
          error={errors.name}
          autocomplete="name"
          required
        />
        <button type="submit">Save name</button>
      </form>
      <h2 id="password-heading">Password</h2>
      <form method="post" action="/account/settings/password" aria-labelledby="password-heading">
        <CsrfField token={props.csrfToken} />
        <Field
          name="current_password"
          label="Current password"
          type="password"
          autocomplete="current-password"
          error={errors.current_password}
          required
        />
        <Field
          name="new_password"
          label="New password"
          type="password"
          autocomplete="new-password"
          hint="At least 10 characters. Your other sessions are signed out."
          error={errors.new_password}
          required
        />
        <p>
          <label>
            <input type="checkbox" name="revoke_credentials" value="yes" />{" "}
            Also revoke all my tokens and connected apps (OAuth grants): assistants and scripts must
            be connected again
          </label>
        </p>
        <button type="submit">Change password</button>
      </form>
    </Layout>
  );
}

/**
 * Invitations to teams addressed to the account's email. The team's name is the only thing of
 * the team shown before the invitation is accepted.
 */
function Invitations(props: PageContext & { invitations?: InvitationRow[] }) {
  return (
    <section aria-labelledby="invitations">
      <h2 id="invitations">Invitations</h2>
      <ul>
        {(props.invitations ?? []).map((i) => (
          <li>
            Team <strong>{i.team_name}</strong> (<code>{i.team_id}</code>) invites you as {i.role}.
            {" "}
            <form method="post" action={`/teams/${i.team_id}/invitation/accept`} class="inline">
              <CsrfField token={props.csrfToken} />
              <button type="submit">Accept</button>
            </form>
            <form method="post" action={`/teams/${i.team_id}/invitation/decline`} class="inline">
              <CsrfField token={props.csrfToken} />
              <button type="submit">Decline</button>
            </form>
          </li>
        ))}
      </ul>
    </section>
  );
}
