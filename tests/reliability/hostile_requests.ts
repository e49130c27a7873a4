/**
 * Generated hostile requests for the bad-input check: malformed and wrongly typed JSON-RPC,
 * huge and deeply nested bodies, invalid UTF-8, path traversal and SQL-like paths, bad and
 * oversized headers and tokens, across MCP, REST, OAuth and the web pages. Deterministic for a
 * seed. None of them may change data: requests that carry a valid token are always invalid
 * (bad path, body, type or precondition), so a correct server refuses every write among them.
 */

/** One request to send. `kind` groups the figures. */
export type Probe = {
  kind: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
};

/** What the probes may aim at: ids that exist, and a valid account token. */
export type ProbeTargets = { publicWiki: string; space: string; page: string; token: string };

/** A small seeded PRNG (mulberry32): the same seed gives the same requests. */
export function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  return { next, int, pick };
}

type Rng = ReturnType<typeof random>;

const MIB = 1024 * 1024;

/** Strings that have broken parsers, SQL and path handling somewhere. */
const NASTY_STRINGS = [
  "",
  " ",
  "'",
  '"',
  "' OR '1'='1",
  "'; DROP TABLE pages; --",
  "1; SELECT pg_sleep(10)",
  "\\",
  "%",
  "%%",
  "_",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff\ud800",
  "😀".repeat(50),
  "\u202e\u202d",
  "../../../../etc/passwd",
  "..\\..\\windows\\win.ini",
  "/etc/passwd",
  "[[Runbook]]",
  "#^|[]",
  "<script>alert(1)</script>",
  "${jndi:ldap://x}",
  "{{7*7}}",
  "null",
  "undefined",
  "NaN",
  "-1",
  "1e309",
  "0x7fffffff",
  "x".repeat(5000),
  "a ".repeat(3000),
  "ℌ𝔢𝔩𝔩𝔬",
  "\r\n\r\nHTTP/1.1 200 OK",
];

/** A value as it would travel in a form field. */
function text(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value) ?? "";
}

/** Percent-encodes for a form or URL; a lone surrogate becomes its (invalid) UTF-8 bytes. */
function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return "%ED%A0%80";
  }
}

/** JSON values of every type, for arguments that expect one. */
function nastyValue(rng: Rng, depth = 0): unknown {
  switch (rng.int(depth > 2 ? 6 : 9)) {
    case 0:
      return rng.pick(NASTY_STRINGS);
    case 1:
      return rng.pick([0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, 2 ** 31, -(2 ** 31) - 1]);
    case 2:
      return rng.pick([true, false, null]);
    case 3:
      return rng.pick(NASTY_STRINGS).slice(0, 40);
    case 4:
      return "q" + rng.int(1000);
    case 5:
      return rng.pick(["search", "get_page", "Runbook", "docs", "*", "%"]);
    case 6:
      return Array.from({ length: rng.int(4) }, () => nastyValue(rng, depth + 1));
    case 7:
      return Object.fromEntries(
        Array.from({ length: rng.int(4) }, () => [rng.pick(KEYS), nastyValue(rng, depth + 1)]),
      );
    default:
      return JSON.parse('{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}}}');
  }
}

const KEYS = [
  "query",
  "page",
  "wiki",
  "space",
  "limit",
  "cursor",
  "offset",
  "max_chars",
  "direction",
  "question",
  "revision",
  "note",
  "__proto__",
  "constructor",
  "",
];

const TOOLS = [
  "search",
  "get_page",
  "neighbors",
  "ask",
  "list_wikis",
  "my_spaces",
  "confirm_use",
  "drop_tables",
  "",
  "../search",
];

/** Deeply nested JSON: arrays or objects `depth` levels down. */
function nested(rng: Rng, depth: number): string {
  return rng.next() < 0.5
    ? "[".repeat(depth) + "]".repeat(depth)
    : '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
}

/** Bytes that are not valid UTF-8, inside or around JSON. */
function invalidUtf8(rng: Rng, around: string): Uint8Array {
  const bad = rng.pick([
    [0xff],
    [0xfe, 0xff],
    [0xc0, 0xaf],
    [0xed, 0xa0, 0x80],
    [0xf4, 0x90, 0x80, 0x80],
    [0xe2, 0x82],
    [0x80, 0x80, 0x80],
  ]);
  const text = new TextEncoder().encode(around);
  const cut = rng.int(text.length + 1);
  return new Uint8Array([...text.slice(0, cut), ...bad, ...text.slice(cut)]);
}

function jsonRpcBody(rng: Rng, t: ProbeTargets): string | Uint8Array {
  const call = () => ({
    jsonrpc: "2.0",
    id: rng.int(1000),
    method: "tools/call",
    params: {
      name: rng.pick(TOOLS),
      arguments: Object.fromEntries(
        Array.from({ length: 1 + rng.int(4) }, () => [rng.pick(KEYS), nastyValue(rng)]),
      ),
    },
  });
  switch (rng.int(12)) {
    case 0: // truncated
      return JSON.stringify(call()).slice(0, 1 + rng.int(60));
    case 1: // not JSON at all
      return rng.pick(["", "null", "[]", "{}", "tools/list", "<xml/>", "{'a':1}", "\u0000"]);
    case 2: // wrong envelope types
      return JSON.stringify({
        jsonrpc: rng.pick(["1.0", "2", 2, null, ""]),
        id: nastyValue(rng),
        method: nastyValue(rng),
        params: nastyValue(rng),
      });
    case 3: // a known method with wrongly typed params
      return JSON.stringify({
        jsonrpc: "2.0",
        id: nastyValue(rng),
        method: rng.pick(["tools/call", "tools/list", "initialize", "ping", "resources/read"]),
        params: nastyValue(rng),
      });
    case 4: // batches: empty, too many, mixed
      return JSON.stringify(
        rng.pick([[], Array.from({ length: 101 + rng.int(50) }, call), [call(), 1, "x", null]]),
      );
    case 5: // deeply nested
      return rng.next() < 0.5
        ? nested(rng, 1000 + rng.int(100_000))
        : `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"query":${
          nested(rng, 5000 + rng.int(20_000))
        }}}}`;
    case 6: // invalid UTF-8
      return invalidUtf8(rng, JSON.stringify(call()));
    case 7: // a hostile page path against a real space, for tools that take one
      return JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: rng.pick(["get_page", "neighbors", "confirm_use"]),
          arguments: {
            page: rng.pick(NASTY_STRINGS) || "..",
            space: rng.pick([t.space, undefined, "../" + t.space]),
            revision: rng.pick([undefined, -1, 0, 1e9]),
          },
        },
      });
    case 8: // huge strings in the arguments
      return JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: rng.pick(TOOLS),
          arguments: { query: "a".repeat(20_000 + rng.int(200_000)) },
        },
      });
    default:
      return JSON.stringify(call());
  }
}

function mcpProbe(rng: Rng, t: ProbeTargets): Probe {
  const endpoint = rng.pick([
    "/mcp/hub/",
    "/mcp/hub",
    `/mcp/w/${t.publicWiki}/`,
    `/mcp/w/${t.space}/`,
    "/mcp/w/..%2F..%2Fetc/",
    "/mcp/",
    "/mcp",
    "/mcp/?access_token=wk_acct_x",
  ]);
  const headers: Record<string, string> = {
    "Content-Type": rng.pick([
      "application/json",
      "application/json",
      "application/json; charset=utf-16",
      "text/plain",
      "application/x-www-form-urlencoded",
      "",
    ]),
    Accept: rng.pick(["application/json, text/event-stream", "application/json", "text/html", ""]),
  };
  if (endpoint.startsWith("/mcp/?") || endpoint === "/mcp/" || endpoint === "/mcp") {
    headers.Authorization = rng.next() < 0.6 ? `Bearer ${t.token}` : badAuthorization(rng, t);
  }
  if (rng.next() < 0.1) headers["MCP-Protocol-Version"] = rng.pick(["2099-01-01", "x", "", "1"]);
  if (rng.next() < 0.05) headers["Mcp-Session-Id"] = rng.pick(["x", "../..", "0".repeat(500)]);
  if (rng.next() < 0.05) headers.Origin = rng.pick(["http://evil.example", "null", "file://"]);
  const method = rng.next() < 0.9 ? "POST" : rng.pick(["GET", "DELETE", "PUT", "PATCH"]);
  return { kind: "mcp", method, path: endpoint, headers, body: jsonRpcBody(rng, t) };
}

function badAuthorization(rng: Rng, t: ProbeTargets): string {
  return rng.pick([
    "",
    "Bearer",
    "Bearer ",
    "Basic dXNlcjpwYXNz",
    `Bearer ${t.token}x`,
    `Bearer ${t.token.slice(0, -1)}`,
    `Bearer  ${t.token} extra`,
    "Bearer wk_acct_" + "A".repeat(20_000),
    "Bearer wk_oat_" + "b".repeat(300),
    "Bearer wk_space_' OR 1=1 --",
    "Bearer \u00ff\u00fe",
    "bearer " + t.token.toUpperCase(),
  ]);
}

/** Page paths and ids for URLs: traversal, SQL, bad percent-encoding, overlong UTF-8. */
const PATH_SEGMENTS = [
  "Runbook",
  "..",
  "%2e%2e",
  "..%2F..%2Fetc%2Fpasswd",
  "%2F",
  "a%2F..%2Fb",
  "%00",
  "%ZZ",
  "%E0%A4%A",
  "%C0%AE%C0%AE",
  "%ED%A0%80",
  "%FF%FE",
  "'%20OR%20'1'%3D'1",
  "%27%3B%20DROP%20TABLE%20pages%3B%20--",
  "%5B%5BRunbook%5D%5D",
  "x".repeat(600),
  "%F0%9F%98%80",
  "Runbook%23frag",
  "Runbook.md",
  "%20",
  "~",
  "*",
];

function restProbe(rng: Rng, t: ProbeTargets): Probe {
  const seg = () => rng.pick(PATH_SEGMENTS);
  const q = () => rng.pick(PATH_SEGMENTS);
  const authed = rng.next() < 0.5;
  const base = authed
    ? `/api/v1/spaces/${rng.pick([t.space, t.space, t.publicWiki, seg()])}`
    : `/api/v1/public/wikis/${rng.pick([t.publicWiki, t.publicWiki, t.space, seg()])}`;
  const headers: Record<string, string> = {};
  if (authed) {
    headers.Authorization = rng.next() < 0.8 ? `Bearer ${t.token}` : badAuthorization(rng, t);
  }
  const reads = [
    `${base}`,
    `${base}/pages?limit=${q()}&cursor=${q()}`,
    `${base}/pages/${seg()}?offset=${rng.pick(["-1", "1e309", "x", "0"])}&max_chars=${q()}`,
    `${base}/pages/${seg()}/neighbors?direction=${q()}&limit=${q()}`,
    `${base}/search?q=${q()}&limit=${rng.pick(["0", "51", "-5", "x", "10"])}&cursor=${q()}`,
    `${base}/search?q=${q()}&q=${q()}`,
    `/api/v1/public/wikis?query=${q()}&limit=${q()}&cursor=${q()}`,
    `/api/v1/${seg()}/${seg()}`,
    `/api/v1/openapi.json?${q()}`,
  ];
  const kind = rng.int(10);
  if (kind < 5) {
    if (rng.next() < 0.2) headers.Accept = rng.pick(["text/markdown", "*/*", "\u00ff"]);
    if (rng.next() < 0.1) headers["If-None-Match"] = rng.pick(['"x"', "*", "W/", "x".repeat(3000)]);
    return { kind: "rest-read", method: "GET", path: rng.pick(reads), headers };
  }
  if (kind < 7) {
    headers["Content-Type"] = rng.pick(["application/json", "text/plain", "", "application/xml"]);
    return {
      kind: "rest-ask",
      method: "POST",
      path: `${base}/ask`,
      headers,
      body: rng.next() < 0.8
        ? JSON.stringify({ [rng.pick(KEYS)]: nastyValue(rng), question: nastyValue(rng) })
        : invalidUtf8(rng, '{"question":"how do I restart?"}'),
    };
  }
  return writeProbe(rng, t, headers);
}

/**
 * Writes that must all be refused: an invalid page path, a malformed or mistyped body, a wrong
 * content type, or a stale `If-Match`. With a valid token, anything else would be a real write.
 */
function writeProbe(rng: Rng, t: ProbeTargets, headers: Record<string, string>): Probe {
  headers.Authorization ??= `Bearer ${t.token}`;
  const space = `/api/v1/spaces/${t.space}`;
  const invalidPath = rng.pick(["..", "%2e%2e", "a%2F..%2Fb", "%00", "%5Bx%5D", "x%7Cy", "%20"]);
  switch (rng.int(6)) {
    case 0:
      headers["Content-Type"] = "text/markdown";
      return {
        kind: "rest-write",
        method: "PUT",
        path: `${space}/pages/${invalidPath}`,
        headers,
        body: rng.next() < 0.5 ? "# Bad path" : invalidUtf8(rng, "# Bad path"),
      };
    case 1:
      headers["Content-Type"] = "application/json";
      return {
        kind: "rest-write",
        method: "PUT",
        path: `${space}/pages/Fuzz${rng.int(100)}`,
        headers,
        body: rng.pick([
          "{",
          '{"markdown":5}',
          '{"markdown":null}',
          '{"markdown":"x","title":7}',
          "[]",
          '"x"',
          nested(rng, 10_000),
        ]),
      };
    case 2:
      headers["Content-Type"] = rng.pick([
        "",
        "application/xml",
        "image/png",
        "multipart/form-data",
      ]);
      return {
        kind: "rest-write",
        method: "PUT",
        path: `${space}/pages/Fuzz${rng.int(100)}`,
        headers,
        body: "# x",
      };
    case 3:
      headers["Content-Type"] = "text/markdown";
      headers["If-Match"] = rng.pick([
        '"1-99"',
        "99",
        '"x"',
        "W/junk",
        "1-",
        '"' + "9".repeat(400) + '"',
      ]);
      return {
        kind: "rest-write",
        method: rng.pick(["PUT", "DELETE"]),
        path: `${space}/pages/${t.page}`,
        headers,
        body: "# Runbook\nOverwritten by a stale writer",
      };
    case 4:
      return {
        kind: "rest-write",
        method: "DELETE",
        path: `${space}/pages/${invalidPath}`,
        headers,
      };
    default: {
      const json = rng.next() < 0.7;
      headers["Content-Type"] = json
        ? "application/json"
        : rng.pick(["application/zip", "text/csv"]);
      return {
        kind: "rest-import",
        method: "POST",
        path: `${space}/import`,
        headers,
        body: json
          ? rng.pick([
            "{",
            '{"pages":"x"}',
            '{"pages":[{"path":1,"markdown":"x"}]}',
            '{"pages":[{"path":"..","markdown":"x"},{"path":"a/../b","markdown":"y"}]}',
            '{"pages":[null,1,"x",[]]}',
            JSON.stringify({ pages: nastyValue(rng) }).replace(/"path":"[^"]*"/g, '"path":".."'),
          ])
          : invalidUtf8(rng, "PK\u0003\u0004garbage"),
      };
    }
  }
}

function oauthProbe(rng: Rng): Probe {
  const form = () =>
    Array.from({ length: rng.int(6) }, () =>
      `${
        rng.pick([
          "grant_type",
          "code",
          "code_verifier",
          "client_id",
          "client_secret",
          "redirect_uri",
          "refresh_token",
          "resource",
          "token",
          "scope",
        ])
      }=${encode(text(nastyValue(rng)))}`).join("&");
  switch (rng.int(5)) {
    case 0:
      return {
        kind: "oauth-register",
        method: "POST",
        path: "/register",
        headers: { "Content-Type": rng.pick(["application/json", "text/plain"]) },
        body: rng.next() < 0.8
          ? JSON.stringify({
            client_name: nastyValue(rng),
            // Never a valid registration: every list holds a refused redirect URI.
            redirect_uris: rng.pick([
              ["javascript:alert(1)"],
              ["http://evil.example/cb", "data:text/html,x"],
              "https://x",
              [],
              [nastyValue(rng), "file:///etc/passwd"],
              Array.from({ length: 2000 }, () => "vbscript:x"),
            ]),
            token_endpoint_auth_method: nastyValue(rng),
            grant_types: nastyValue(rng),
          })
          : rng.pick(["{", "[]", nested(rng, 5000)]),
      };
    case 1:
    case 2: {
      const headers: Record<string, string> = {
        "Content-Type": rng.pick(["application/x-www-form-urlencoded", "application/json", ""]),
      };
      if (rng.next() < 0.3) {
        headers.Authorization = rng.pick([
          "Basic !!!",
          "Basic " + btoa("no-colon"),
          "Basic " + btoa("a:b:c"),
          "Basic " + "A".repeat(5000),
          "Bearer x",
        ]);
      }
      return {
        kind: "oauth-token",
        method: "POST",
        path: rng.pick(["/token", "/revoke"]),
        headers,
        body: rng.next() < 0.9 ? form() : invalidUtf8(rng, "grant_type=authorization_code&code=x"),
      };
    }
    case 3:
      return {
        kind: "oauth-authorize",
        method: rng.pick(["GET", "POST"]),
        path: `/authorize?${form()}&response_type=${rng.pick(["code", "token", "%00"])}`,
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: undefined,
      };
    default:
      return {
        kind: "oauth-metadata",
        method: "GET",
        path: rng.pick([
          "/.well-known/oauth-authorization-server",
          "/.well-known/oauth-protected-resource/mcp",
          "/.well-known/oauth-protected-resource/..%2F..%2F",
          "/.well-known/mcp",
          "/.well-known/%00",
        ]),
        headers: {},
      };
  }
}

function webProbe(rng: Rng, t: ProbeTargets): Probe {
  const headers: Record<string, string> = {};
  if (rng.next() < 0.5) {
    headers.Cookie = rng.pick([
      "wiki_session=" + "A".repeat(43),
      "wiki_session=../../x",
      "wiki_session=" + "x".repeat(4000),
      "wiki_csrf=x; wiki_session=",
      "=; ;;",
      "wiki_session=\u00ff",
    ]);
  }
  if (rng.next() < 0.6) {
    const multipart = rng.next() < 0.3;
    headers["Content-Type"] = multipart
      ? rng.pick([
        "multipart/form-data; boundary=x",
        "multipart/form-data",
        "multipart/form-data; boundary=",
      ])
      : "application/x-www-form-urlencoded";
    if (rng.next() < 0.3) headers.Origin = "http://evil.example";
    return {
      kind: "web-form",
      method: "POST",
      path: rng.pick([
        "/signin",
        "/signup",
        "/signout",
        "/teams",
        "/account/tokens",
        `/teams/${rng.pick(PATH_SEGMENTS)}/members`,
      ]),
      headers,
      body: multipart
        ? rng.pick([
          '--x\r\nContent-Disposition: form-data; name="email"\r\n\r\nx',
          "--x--",
          "garbage",
          "--x\r\n\r\n",
        ])
        : `email=${encode(text(nastyValue(rng)))}&password=${encode(text(nastyValue(rng)))}&_csrf=${
          rng.pick(["", "x", "A".repeat(43)])
        }`,
    };
  }
  return {
    kind: "web-page",
    method: "GET",
    path: rng.pick([
      `/w/${rng.pick([t.space, t.publicWiki, ...PATH_SEGMENTS])}/-/audit?before=${
        rng.pick(PATH_SEGMENTS)
      }`,
      `/teams/${rng.pick(PATH_SEGMENTS)}`,
      `/signin?next=${rng.pick(["//evil.example", "/\\evil", "javascript:x", ...PATH_SEGMENTS])}`,
      "/account",
      "/account/tokens",
      `/llms.txt?${rng.pick(PATH_SEGMENTS)}`,
      `/${rng.pick(PATH_SEGMENTS)}`,
    ]),
    headers,
  };
}

/** Requests whose head is hostile: too many or too large headers, odd values, odd methods. */
function headerProbe(rng: Rng, t: ProbeTargets): Probe {
  const headers: Record<string, string> = {};
  switch (rng.int(6)) {
    case 0:
      for (let i = 0; i < 101 + rng.int(20); i++) headers[`X-Fuzz-${i}`] = "v";
      break;
    case 1:
      headers["X-Big"] = "a".repeat(33 * 1024 + rng.int(20_000));
      break;
    case 2:
      headers.Authorization = "Bearer " + "x".repeat(30_000 + rng.int(10_000));
      break;
    case 3:
      headers["X-Request-Id"] = rng.pick(["x".repeat(1000), "../../", "\u00ff\u00fe", "a b"]);
      headers["X-Forwarded-For"] = rng.pick(["1.2.3.4, ::1", "x".repeat(2000), "'; DROP", ""]);
      break;
    case 4:
      headers["Content-Length"] = rng.pick(["-1", "x", "99999999999999999999"]);
      break;
    default:
      headers.Host = rng.pick(["evil.example", "localhost:1", "[::1]", "x".repeat(300)]);
  }
  const path = rng.pick([
    "/api/v1/public/wikis",
    `/api/v1/spaces/${t.space}/pages`,
    "/mcp/hub/",
    "/healthz",
    `/?${"q".repeat(9000)}`,
    `/api/v1/public/wikis/${t.publicWiki}/search?q=${"z".repeat(10_000)}`,
  ]);
  const post = path.startsWith("/mcp");
  if (post) {
    headers["Content-Type"] = "application/json";
    headers.Accept = "application/json, text/event-stream";
  }
  return {
    kind: "headers",
    method: post ? "POST" : rng.pick(["GET", "GET", "HEAD", "OPTIONS", "PURGE", "PROPFIND"]),
    path,
    headers,
    body: post ? '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' : undefined,
  };
}

/** Bodies over every limit; few, since each is megabytes. */
function hugeProbe(rng: Rng, t: ProbeTargets): Probe {
  const size = rng.pick([1 * MIB + 1, 4 * MIB + 1, 5 * MIB]);
  const filler = "x".repeat(size);
  return rng.pick<Probe>([
    {
      kind: "huge",
      method: "POST",
      path: "/mcp/hub/",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
      },
      body: `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"${filler}"}}`,
    },
    {
      kind: "huge",
      method: "PUT",
      path: `/api/v1/spaces/${t.space}/pages/..`,
      headers: { "Content-Type": "text/markdown", Authorization: `Bearer ${t.token}` },
      body: filler,
    },
    {
      kind: "huge",
      method: "POST",
      path: "/signin",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: `email=${filler}`,
    },
    {
      kind: "huge",
      method: "POST",
      path: "/register",
      headers: { "Content-Type": "application/json" },
      body: `{"client_name":"${filler}"}`,
    },
  ]);
}

/** `count` hostile requests for `seed`, mixed over every surface. */
export function hostileRequests(seed: number, count: number, t: ProbeTargets): Probe[] {
  const rng = random(seed);
  const probes: Probe[] = [];
  for (let i = 0; i < count; i++) {
    const roll = rng.next();
    probes.push(
      roll < 0.003
        ? hugeProbe(rng, t)
        : roll < 0.33
        ? mcpProbe(rng, t)
        : roll < 0.58
        ? restProbe(rng, t)
        : roll < 0.73
        ? oauthProbe(rng)
        : roll < 0.88
        ? webProbe(rng, t)
        : headerProbe(rng, t),
    );
  }
  return probes;
}
