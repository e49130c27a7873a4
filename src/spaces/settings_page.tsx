import { Alert, CsrfField, Field, TextArea } from "../kit/web/form_kit.tsx";
import type { TeamRow } from "../teams/teams.ts";
import type { SyncStatus } from "../sync/connect_source.ts";
import { SyncSummary } from "../sync/sync_summary.tsx";
import { toolHref } from "../kit/web/space_urls.ts";
import { type SpaceView, WikiFrame } from "../kit/web/wiki_frame.tsx";
import type { WikiSettingsErrors, WikiSettingsForm } from "./wiki_settings.ts";

/**
 * A wiki's settings for its owners and admins: title, description, visibility, instructions
 * for assistants; who its members are; and, for owners, deleting it by typing its id.
 */
export function SettingsPage(
  props: SpaceView & {
    values: WikiSettingsForm;
    errors?: WikiSettingsErrors;
    saved?: boolean;
    deleteError?: string | undefined;
    /** The space's Git connection, when it has one. */
    sync?: SyncStatus | null;
    /** The teams its owner may move a personal space to (none for a team's space). */
    teams?: TeamRow[];
    moved?: boolean;
    moveError?: string | undefined;
  },
) {
  const { wiki, role } = props.space;
  const errors = props.errors ?? {};
  const invalid = Object.keys(errors).length > 0;
  return (
    <WikiFrame {...props} title={`Settings of ${wiki.title}`}>
      <Alert message={invalid ? "Please correct the fields below" : undefined} />
      {props.saved && <p class="notice" role="status">Settings saved.</p>}
      <SettingsForm
        wikiId={wiki.id}
        csrfToken={props.csrfToken}
        values={props.values}
        errors={errors}
      />

      <h2>Git sync</h2>
      {props.sync
        ? <SyncSummary wikiId={wiki.id} status={props.sync} csrfToken={props.csrfToken} />
        : (
          <p>
            Keep this space's pages in a Git repository:{" "}
            <a href={toolHref(wiki.id, "sync")}>
              connect a repository
            </a>.
          </p>
        )}

      <Members
        wiki={wiki}
        role={role}
        csrfToken={props.csrfToken}
        teams={props.teams}
        moved={props.moved}
        moveError={props.moveError}
      />

      <DeleteWiki
        wikiId={wiki.id}
        owner={role === "owner"}
        csrfToken={props.csrfToken}
        error={props.deleteError}
      />
    </WikiFrame>
  );
}

/** The form of the wiki's title, description, visibility and instructions. */
function SettingsForm(
  props: {
    wikiId: string;
    csrfToken: string;
    values: WikiSettingsForm;
    errors: WikiSettingsErrors;
  },
) {
  const { values, errors } = props;
  return (
    <form method="post" action={toolHref(props.wikiId, "settings")}>
      <CsrfField token={props.csrfToken} />
      <Field
        name="title"
        label="Title"
        required
        value={values.title}
        error={errors.title}
      />
      <TextArea
        name="description"
        label="Description"
        rows={3}
        value={values.description}
        hint="One or two sentences: shown on the wiki's home and to assistants choosing a wiki"
        error={errors.description}
      />
      <fieldset aria-describedby={errors.visibility ? "field-visibility-error" : undefined}>
        <legend>Visibility</legend>
        <label class="check">
          <input
            type="radio"
            name="visibility"
            value="private"
            checked={values.visibility === "private"}
          />{" "}
          Private: only members read it
        </label>
        <label class="check">
          <input
            type="radio"
            name="visibility"
            value="public"
            checked={values.visibility === "public"}
          />{" "}
          Public: anyone can read it, on the web and over MCP; only members change it
        </label>
        {errors.visibility && <p class="error" id="field-visibility-error">{errors.visibility}</p>}
      </fieldset>
      <TextArea
        name="instructions"
        label="Instructions for assistants"
        rows={6}
        value={values.instructions}
        hint="Told to AI assistants that connect to this wiki: what it covers, how to cite it"
        error={errors.instructions}
      />
      <button type="submit">Save settings</button>
    </form>
  );
}

/** Who the wiki's members are, and for an owner of a personal space, moving it to a team. */
function Members(
  props: {
    wiki: SpaceView["space"]["wiki"];
    role: SpaceView["space"]["role"];
    csrfToken: string;
    teams?: TeamRow[];
    moved?: boolean;
    moveError?: string | undefined;
  },
) {
  const { wiki, role } = props;
  return (
    <>
      <h2>Members</h2>
      {wiki.owner_team_id
        ? (
          <p>
            This wiki belongs to the team{" "}
            <a href={`/teams/${wiki.owner_team_id}`}>{wiki.owner_team_id}</a>: its members read and
            write it, its owners and admins manage it. Add or remove members on the team's page.
          </p>
        )
        : wiki.owner_account_id
        ? <p>This is a personal space: only its owner can reach it while it is private.</p>
        : <p>This wiki belongs to the operator of this site.</p>}
      {props.moved && <p class="notice" role="status">Moved: the team's members reach it now.</p>}
      <Alert message={props.moveError} />
      {wiki.owner_account_id && role === "owner" && (
        <MoveToTeam wikiId={wiki.id} csrfToken={props.csrfToken} teams={props.teams ?? []} />
      )}
    </>
  );
}

/** Deleting the wiki by typing its id (owners only). */
function DeleteWiki(
  props: { wikiId: string; owner: boolean; csrfToken: string; error: string | undefined },
) {
  return (
    <>
      <h2>Delete this wiki</h2>
      {props.owner
        ? (
          <form method="post" action={toolHref(props.wikiId, "settings/delete")}>
            <CsrfField token={props.csrfToken} />
            <p>
              Every page, its history and the tokens made for this wiki go with it. This cannot be
              undone.
            </p>
            <Field
              name="confirm"
              label={`Type the wiki id, ${props.wikiId}, to confirm`}
              required
              autocomplete="off"
              error={props.error}
            />
            <button type="submit" class="danger">Delete this wiki</button>
          </form>
        )
        : <p>Only owners can delete it.</p>}
    </>
  );
}

/** The form that moves a personal space to one of its owner's teams (no way back). */
function MoveToTeam(props: { wikiId: string; csrfToken: string; teams: TeamRow[] }) {
  if (props.teams.length === 0) {
    return (
      <p class="hint">
        To share it, <a href="/account#teams">create a team</a>{" "}
        on your dashboard, then move it here.
      </p>
    );
  }
  return (
    <form method="post" action={toolHref(props.wikiId, "settings/team")}>
      <h3>Move to a team</h3>
      <CsrfField token={props.csrfToken} />
      <p>
        The team's members will read and write it, its owners and admins manage it; you keep it
        through your role in the team. Your tokens for it go on working.{" "}
        <strong>This cannot be undone:</strong> a team's space cannot be made personal again.
      </p>
      <label for="move-team">Team</label>
      <select id="move-team" name="team" required>
        {props.teams.map((t) => <option value={t.id}>{t.name} ({t.id})</option>)}
      </select>
      <label>
        <input type="checkbox" name="confirm" value="yes" required />{" "}
        I understand that the space cannot be made personal again
      </label>
      <button type="submit" class="danger">Move to this team</button>
    </form>
  );
}
