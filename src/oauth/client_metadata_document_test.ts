import assert from "node:assert/strict";
import http from "node:http";
import { fetchClientDocument } from "./client_metadata_document.ts";
import { type DocumentFetcher, pinnedFetch } from "../http/pinned_fetch.ts";

const DOC_URL = "https://app.example/oauth/client.json";
const DOC = {
  client_id: DOC_URL,
  redirect_uris: ["https://app.example/callback"],
  token_endpoint_auth_method: "none",
};

/** A network whose DNS answers a public address first, then a private one (rebinding). */
function rebindingNetwork(status = 200) {
  const lookups: string[] = [];
  const connected: string[] = [];
  const fetcher: DocumentFetcher = {
    resolveDns: (host) => {
      lookups.push(host);
      return Promise.resolve(lookups.length === 1 ? ["93.184.215.14"] : ["127.0.0.1"]);
    },
    fetch: (_url, _init, address) => {
      connected.push(address);
      return Promise.resolve(
        new Response(JSON.stringify(DOC), {
          status,
          headers: { "Content-Type": "application/json" },
        }),
      );
    },
  };
  return { fetcher, lookups, connected };
}

Deno.test("a metadata document is fetched from the address that was checked, resolved once", async () => {
  const net = rebindingNetwork();
  const result = await fetchClientDocument(net.fetcher, DOC_URL);
  assert.equal(result.ok, true);
  assert.deepEqual(net.lookups, ["app.example"]);
  assert.deepEqual(net.connected, ["93.184.215.14"]);
});

Deno.test("a failed fetch says only that it could not be fetched, never the status", async () => {
  for (const status of [301, 404, 500, 503]) {
    const result = await fetchClientDocument(rebindingNetwork(status).fetcher, DOC_URL);
    assert.deepEqual(result, {
      ok: false,
      reason: "The client metadata document could not be fetched",
    });
  }
  const privateHost: DocumentFetcher = {
    resolveDns: () => Promise.resolve(["10.0.0.1"]),
    fetch: () => Promise.reject(new Error("must not connect")),
  };
  const noAddress: DocumentFetcher = { ...privateHost, resolveDns: () => Promise.resolve([]) };
  for (const fetcher of [privateHost, noAddress]) {
    const result = await fetchClientDocument(fetcher, DOC_URL);
    assert.equal(result.ok, false);
    assert.equal(!result.ok && result.reason, "The client metadata document could not be fetched");
  }
});

Deno.test("pinnedFetch connects to the given address and never resolves the URL's host", async () => {
  const seen: string[] = [];
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push(req.headers.get("host") ?? "");
    return Response.json(DOC, { headers: { "Cache-Control": "max-age=60" } });
  });
  const url = `http://rebinding.invalid:${server.addr.port}/oauth/client.json`;
  const res = await pinnedFetch(
    url,
    { headers: { Accept: "application/json" } },
    "127.0.0.1",
    http.request,
  );
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type")!, /application\/json/);
  assert.deepEqual(await res.json(), DOC);
  assert.deepEqual(
    seen,
    [`rebinding.invalid:${server.addr.port}`],
    "the Host header names the URL's host",
  );
});
