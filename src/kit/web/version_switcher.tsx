import { toolHref } from "./space_urls.ts";

/** The live pages, as the switcher names them (the versions feature's `LATEST`). */
const LIVE = "latest";

/**
 * A space's versions as a reading view offers them: each published version (the default
 * marked) and the live pages. A GET form to `/w/<id>/-/versions/go`, which opens the same page
 * in the chosen version, or the version's home when the page is not in it; choosing submits it
 * (`/assets/version_switch.js`), and without script the Go button does. `missing` is the page
 * the reader came from that the version they chose does not hold: said once, here.
 */
export function VersionSwitcher(props: {
  wikiId: string;
  /** Published versions, oldest first. */
  versions: string[];
  /** The version reads get when they name none ("latest" when the owner chose none). */
  defaultName: string;
  /** The version shown ("latest" on the live pages). */
  current: string;
  path?: string | undefined;
  missing?: string | undefined;
}) {
  const names = [...props.versions].reverse();
  const label = (name: string) =>
    `${name === LIVE ? "latest (live pages)" : name}${
      name.toLowerCase() === props.defaultName.toLowerCase() ? " · default" : ""
    }`;
  return (
    <>
      {props.missing && (
        <p class="notice" role="status">
          There is no page <strong>{props.missing}</strong> in version{" "}
          <strong>{props.current}</strong>: this is its home instead.
        </p>
      )}
      <form
        method="get"
        action={toolHref(props.wikiId, "versions/go")}
        class="version-switcher tools"
        aria-label="Versions"
      >
        {props.path && <input type="hidden" name="path" value={props.path} />}
        <label for="version-switch">Version</label>
        <select id="version-switch" name="v">
          {[...names, LIVE].map((name) => (
            <option
              value={name}
              selected={name.toLowerCase() === props.current.toLowerCase()}
            >
              {label(name)}
            </option>
          ))}
        </select>
        <button type="submit" class="secondary">Go</button>
        <a href={toolHref(props.wikiId, "versions")}>All versions</a>
        <script src="/assets/version_switch.js" defer></script>
      </form>
    </>
  );
}
