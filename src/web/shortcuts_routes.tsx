import { Hono } from "hono";
import { Layout } from "../kit/web/layout.tsx";
import { EDITOR_KEYS } from "../kit/web/shortcut_keys.ts";

/** The keys the whole site answers to (`/assets/nav.js`, `/assets/search.js`, `/assets/palette.js`), and the editor's. */
const SHORTCUTS: { keys: string[][]; what: string; where: string }[] = [
  {
    keys: [["/"]],
    what: "Search: put the cursor in the search box",
    where: "A wiki, your dashboard",
  },
  { keys: [["?"]], what: "Show this list of keys", where: "A wiki, your dashboard" },
  {
    keys: [["Ctrl", "K"], ["⌘", "K"]],
    what: "Open the search palette: titles, headings and pages as you type (↓ ↑, Enter, Esc)",
    where: "A wiki, your dashboard",
  },
  {
    keys: [["↓"], ["↑"]],
    what: "Move through the suggestions under the search box",
    where: "While searching",
  },
  { keys: [["Enter"]], what: "Open the suggestion, or see all results", where: "While searching" },
  { keys: [["Esc"]], what: "Close the suggestions", where: "While searching" },
  ...EDITOR_KEYS.map(({ keys, what }) => ({ keys: [keys], what, where: "The editor" })),
];

/** `GET /shortcuts`: the keyboard shortcuts, as a page (`?` opens it), readable without script. */
export function shortcutsRoutes(): Hono {
  const app = new Hono();
  app.get("/shortcuts", (c) =>
    c.html(
      <Layout title="Keyboard shortcuts" account={c.get("account")} csrfToken={c.get("csrfToken")}>
        <p class="lead">
          Every page works with the mouse or without script; these keys save a few steps.
        </p>
        <table>
          <caption class="sr-only">Keyboard shortcuts</caption>
          <thead>
            <tr>
              <th scope="col">Keys</th>
              <th scope="col">What they do</th>
              <th scope="col">Where</th>
            </tr>
          </thead>
          <tbody>
            {SHORTCUTS.map((s) => (
              <tr>
                <td>
                  {s.keys.map((combo, i) => (
                    <>
                      {i > 0 && " or "}
                      {combo.map((key, j) => (
                        <>
                          {j > 0 && "+"}
                          <kbd>{key}</kbd>
                        </>
                      ))}
                    </>
                  ))}
                </td>
                <th scope="row">{s.what}</th>
                <td>{s.where}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Layout>,
    ));
  return app;
}
