import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { formText, openSpace } from "../kit/web/space_context.ts";
import { toolHref } from "../kit/web/space_urls.ts";
import { PeoplePage } from "./people_page.tsx";
import { peopleOf, shareSpace, unshareSpace } from "./shares.ts";

/** A space's People page (owners and admins): who can do what, sharing with one person. */
export function peopleRoutes(deps: Deps): Hono {
  const app = new Hono();

  app.get("/w/:id/-/people", async (c) => {
    const view = await openSpace(deps, c, "admin", "see who can reach it");
    const query = c.req.query();
    const notice = query.shared
      ? `Shared with ${query.shared} as ${query.role}: the space reaches their account now, or once they sign up with that email.`
      : query.removed
      ? `${query.removed} no longer reaches this space.`
      : undefined;
    return c.html(
      <PeoplePage {...view} people={await peopleOf(deps.db, view.space.wiki.id)} notice={notice} />,
    );
  });

  app.post("/w/:id/-/people", async (c) => {
    const view = await openSpace(deps, c, "admin", "share it");
    const form = await c.req.parseBody();
    const email = formText(form.email).trim();
    try {
      const role = await shareSpace(deps.db, {
        wikiId: view.space.wiki.id,
        email,
        role: formText(form.role),
        actorId: view.account!.id,
      });
      return c.redirect(toolHref(view.space.wiki.id, "people", { shared: email, role }), 303);
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      const people = await peopleOf(deps.db, view.space.wiki.id);
      return c.html(
        <PeoplePage {...view} people={people} error={error.detail} email={email} />,
        400,
      );
    }
  });

  app.post("/w/:id/-/people/remove", async (c) => {
    const view = await openSpace(deps, c, "admin", "stop sharing it");
    const email = c.req.query("email") ?? "";
    await unshareSpace(deps.db, view.space.wiki.id, email);
    return c.redirect(toolHref(view.space.wiki.id, "people", { removed: email }), 303);
  });

  return app;
}
