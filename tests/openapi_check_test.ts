import assert from "node:assert/strict";
import { Hono } from "hono";
import { checkRestResponses } from "./openapi_check.ts";

/** A tiny app serving its own document, to show what the check refuses. */
function tinyApp(): Hono {
  const app = new Hono();
  app.get("/api/v1/openapi.json", (c) =>
    c.json({
      openapi: "3.1.0",
      info: { title: "t", version: "1" },
      paths: {
        "/things/{id}": {
          get: {
            responses: {
              "200": {
                description: "A thing",
                content: {
                  "application/json": {
                    schema: {
                      type: "object",
                      required: ["id"],
                      properties: { id: { type: "integer" } },
                    },
                  },
                },
              },
            },
          },
        },
      },
    }));
  app.get("/api/v1/things/:id", (c) => {
    const id = c.req.param("id");
    if (id === "teapot") return c.text("short and stout", 418);
    if (id === "html") return c.html("<p>1</p>");
    return c.json({ id: id === "word" ? "one" : Number(id) });
  });
  return checkRestResponses(app);
}

Deno.test("the REST response check passes a documented response and refuses the others", async () => {
  const app = tinyApp();
  assert.equal((await app.request("/api/v1/things/1")).status, 200);
  await assert.rejects(
    async () => await app.request("/api/v1/things/word"),
    /body does not match the document/,
  );
  await assert.rejects(
    async () => await app.request("/api/v1/things/teapot"),
    /418: status not documented/,
  );
  await assert.rejects(
    async () => await app.request("/api/v1/things/html"),
    /Content-Type "text\/html"/,
  );
  assert.equal((await app.request("/api/v1/unknown")).status, 404, "no operation: not checked");
});
