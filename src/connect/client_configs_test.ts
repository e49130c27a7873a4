import assert from "node:assert/strict";
import {
  type ClientConfig,
  CLIENTS,
  type Endpoint,
  reachableFromInternet,
  TOKEN_PLACEHOLDER,
} from "./client_configs.ts";

const publicEndpoint: Endpoint = {
  url: "https://wiki.example.com/mcp/w/garden/",
  name: "wiki-garden",
  private: false,
};
const privateEndpoint: Endpoint = {
  url: "https://wiki.example.com/mcp/",
  name: "wiki",
  private: true,
};

/** The JSON a snippet holds: the whole snippet, or the body of a curl command's `-d '…'`. */
function jsonOf(config: ClientConfig): Record<string, unknown> | null {
  if (config.language === "json") return JSON.parse(config.snippet);
  const body = /-d '([\s\S]*)'$/.exec(config.snippet);
  return body ? JSON.parse(body[1]!) : null;
}

function config(id: string, endpoint: Endpoint): ClientConfig {
  return CLIENTS.find((c) => c.id === id)!.config(endpoint);
}

Deno.test("every JSON snippet parses and names the server address with the client's own key", () => {
  const addressKey: Record<string, string> = {
    cursor: "url",
    vscode: "url",
    "gemini-cli": "url",
    windsurf: "serverUrl",
    cline: "url",
  };
  for (const endpoint of [publicEndpoint, privateEndpoint]) {
    for (const [id, key] of Object.entries(addressKey)) {
      const json = jsonOf(config(id, endpoint))!;
      const map = (id === "vscode" ? json.servers : json.mcpServers) as Record<
        string,
        Record<string, unknown>
      >;
      assert.deepEqual(Object.keys(json).filter((k) => k !== "inputs"), [
        id === "vscode" ? "servers" : "mcpServers",
      ]);
      const server = map[endpoint.name]!;
      assert.equal(server[key], endpoint.url, `${id} puts the address under ${key}`);
      if (id === "vscode") assert.equal(server.type, "http");
      if (id === "cline") assert.equal(server.type, "streamableHttp");
      if (id === "gemini-cli") {
        assert.equal(server.type, "http", "Gemini CLI reads a url without type as SSE");
        assert.equal(server.httpUrl, undefined, "httpUrl is deprecated in Gemini CLI");
      }
      if (id === "vscode" && endpoint.private) {
        const headers = server.headers as Record<string, string>;
        assert.equal(headers.Authorization, "Bearer ${input:wiki-token}");
        const [input] = json.inputs as { id: string; type: string; password: boolean }[];
        assert.deepEqual([input!.id, input!.type, input!.password], [
          "wiki-token",
          "promptString",
          true,
        ]);
      } else if (endpoint.private) {
        assert.deepEqual(server.headers, { Authorization: `Bearer ${TOKEN_PLACEHOLDER}` });
      } else {
        assert.equal(server.headers, undefined, `${id}: no token for a public endpoint`);
        assert.equal(json.inputs, undefined);
      }
    }
  }
});

Deno.test("the API connectors take the token in authorization_token and authorization", () => {
  for (const endpoint of [publicEndpoint, privateEndpoint]) {
    const anthropic = config("anthropic-api", endpoint);
    assert.match(anthropic.snippet, /^curl https:\/\/api\.anthropic\.com\/v1\/messages/);
    assert.match(anthropic.snippet, /anthropic-beta: mcp-client-2025-11-20/);
    const a = jsonOf(anthropic)!;
    assert.deepEqual(a.mcp_servers, [{
      type: "url",
      url: endpoint.url,
      name: endpoint.name,
      ...(endpoint.private ? { authorization_token: TOKEN_PLACEHOLDER } : {}),
    }]);
    assert.deepEqual(a.tools, [{ type: "mcp_toolset", mcp_server_name: endpoint.name }]);

    const openai = config("openai-api", endpoint);
    assert.match(openai.snippet, /^curl https:\/\/api\.openai\.com\/v1\/responses/);
    const o = jsonOf(openai)!;
    assert.deepEqual(o.tools, [{
      type: "mcp",
      server_label: endpoint.name,
      server_url: endpoint.url,
      ...(endpoint.private ? { authorization: TOKEN_PLACEHOLDER } : {}),
      require_approval: "never",
    }]);
    assert.equal(
      openai.notes.some((n) => /on every call/.test(n)),
      endpoint.private,
      "the Responses API needs the token on every call",
    );
  }
});

Deno.test("Claude Code gets one command; the consumer apps get the address and OAuth steps", () => {
  assert.equal(
    config("claude-code", privateEndpoint).snippet,
    `claude mcp add --transport http wiki https://wiki.example.com/mcp/ \\\n` +
      `  --header "Authorization: Bearer ${TOKEN_PLACEHOLDER}"`,
  );
  assert.equal(
    config("claude-code", publicEndpoint).snippet,
    "claude mcp add --transport http wiki-garden https://wiki.example.com/mcp/w/garden/",
  );
  for (const client of CLIENTS.filter((c) => c.oauthOnly)) {
    const app = client.config(privateEndpoint);
    assert.equal(app.language, "url");
    assert.equal(app.snippet, privateEndpoint.url);
    assert.ok(app.steps?.some((s) => /OAuth|sign-in page/.test(s)), `${client.id} signs in`);
    assert.ok(!JSON.stringify(app).includes(TOKEN_PLACEHOLDER), `${client.id} takes no token`);
  }
  assert.equal(CLIENTS.length, 10);
  assert.equal(new Set(CLIENTS.map((c) => c.id)).size, CLIENTS.length);
});

Deno.test("reachableFromInternet: https and not a local name", () => {
  assert.equal(reachableFromInternet("https://wiki.example.com"), true);
  assert.equal(reachableFromInternet("http://wiki.example.com"), false);
  assert.equal(reachableFromInternet("https://localhost:8000"), false);
  assert.equal(reachableFromInternet("https://127.0.0.1"), false);
  assert.equal(reachableFromInternet("https://wiki.localhost"), false);
});
