import { CsrfField, Field } from "../kit/web/form_kit.tsx";

/** The form that creates a team (on the account page, and alone when it needs correcting). */
export function CreateTeamForm(
  props: { csrfToken: string; values?: { id?: string; name?: string } },
) {
  return (
    <form method="post" action="/teams">
      <CsrfField token={props.csrfToken} />
      <Field
        name="id"
        id="field-team-id"
        label="Team id"
        required
        hint="1-64 characters of a-z, 0-9 and inner hyphens, e.g. research-lab"
        value={props.values?.id}
      />
      <Field
        name="name"
        label="Team name"
        hint="Optional; the id if empty"
        value={props.values?.name}
      />
      <button type="submit">Create team</button>
    </form>
  );
}
