import { Alert, CsrfField, Field, PostButton, SelectField } from "../kit/web/form_kit.tsx";
import { toolHref } from "../kit/web/space_urls.ts";
import { type SpaceView, WikiFrame } from "../kit/web/wiki_frame.tsx";
import type { Role } from "../access/role.ts";
import type { Person } from "./shares.ts";

/** What each role may do in a space, as the People page says it. */
const MAY: Record<Role, string> = {
  owner: "Read, ask, write, manage",
  admin: "Read, ask, write, manage",
  member: "Read, ask, write",
  viewer: "Read, search, ask",
};

const THROUGH: Record<Person["through"], string> = {
  owner: "owns the space",
  team: "team member",
  share: "shared with them",
};

/**
 * Who can do what in a space, on one page (owners and admins): its owner or team members
 * with their roles, and the people it is shared with, whom the page can add and remove.
 */
export function PeoplePage(
  props: SpaceView & {
    people: Person[];
    error?: string | undefined;
    notice?: string | undefined;
    email?: string;
  },
) {
  const { wiki } = props.space;
  const base = toolHref(wiki.id, "people");
  return (
    <WikiFrame {...props} title={`People of ${wiki.title}`}>
      <Alert message={props.error} />
      {props.notice && <p class="notice" role="status">{props.notice}</p>}
      <table class="people">
        <caption>Who can do what in {wiki.title}</caption>
        <thead>
          <tr>
            <th scope="col">Person</th>
            <th scope="col">Role</th>
            <th scope="col">How</th>
            <th scope="col">May</th>
            <th scope="col">
              <span class="sr-only">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {props.people.map((p) => (
            <tr>
              <td>{p.name ? `${p.name} (${p.email})` : p.email}</td>
              <td>{p.role}</td>
              <td>{THROUGH[p.through]}</td>
              <td>{MAY[p.role]}</td>
              <td class="remove">
                {p.through === "share" && (
                  <PostButton
                    action={`${base}/remove?email=${encodeURIComponent(p.email)}`}
                    label={`Stop sharing with ${p.email}`}
                    csrfToken={props.csrfToken}
                  />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {wiki.owner_team_id && (
        <p class="hint">
          Team members' roles are changed on{" "}
          <a href={`/teams/${wiki.owner_team_id}`}>the team's page</a>.
        </p>
      )}
      <h2>Share with one person</h2>
      <form method="post" action={base}>
        <CsrfField token={props.csrfToken} />
        <Field
          name="email"
          label="Their email"
          type="email"
          required
          value={props.email}
          hint="The space reaches the account with this email, now or once they sign up with it"
        />
        <SelectField
          name="role"
          id="field-share-role"
          label="Role"
          value="viewer"
          options={[
            { value: "viewer", label: "viewer: reads, searches and asks; changes nothing" },
            { value: "member", label: "member: also writes pages and files" },
          ]}
        />
        <button type="submit">Share</button>
      </form>
    </WikiFrame>
  );
}
