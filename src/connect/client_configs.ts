/**
 * Ready-to-paste configuration of each MCP client for one endpoint of this service: one pure
 * function per client. Formats follow each client's documentation; the facts they share are
 * in the interface spec (§4.3): a Bearer token in `Authorization`, and per-client key names.
 */

/** An MCP endpoint to configure: its address, the name the client lists it under, its auth. */
export type Endpoint = {
  url: string;
  /** The server's name in the client's config: letters, digits and `-`. */
  name: string;
  /** True for the private endpoint (`/mcp/`): a token, or OAuth in the consumer apps. */
  private: boolean;
};

/** What a person does to connect one client: edit a file, run a command, or follow steps. */
export type ClientConfig = {
  /** Where the snippet goes, or where the steps start. */
  where: string;
  /** The text to paste: a command, a JSON file, or (for apps) the server's address. */
  snippet: string;
  language: "shell" | "json" | "url";
  /** Steps in an app's settings, when the snippet alone is not enough. */
  steps?: string[];
  notes: string[];
};

/** A client the connect page covers. */
export type Client = {
  id: string;
  title: string;
  /** True when it signs in with OAuth only: it takes no pasted token. */
  oauthOnly?: boolean;
  config(endpoint: Endpoint): ClientConfig;
};

/** Stands for a token in every snippet; the page never holds a real one. */
export const TOKEN_PLACEHOLDER = "<YOUR_TOKEN>";

const BEARER = `Bearer ${TOKEN_PLACEHOLDER}`;
const QUESTION = "What does the wiki say about getting started?";

/** Claude Code: one `claude mcp add` command. */
export function claudeCodeConfig(e: Endpoint): ClientConfig {
  return {
    where: "A terminal, in the project where you use Claude Code",
    snippet: `claude mcp add --transport http ${e.name} ${e.url}` +
      (e.private ? ` \\\n  --header "Authorization: ${BEARER}"` : ""),
    language: "shell",
    notes: [
      "Add --scope user (before the name) to use it in every project; claude mcp list checks the connection.",
      ...(e.private
        ? [
          "Without --header, Claude Code signs you in with OAuth instead (run /mcp in Claude Code).",
        ]
        : []),
    ],
  };
}

/** Claude Desktop and claude.ai: a custom connector, signed in with OAuth. */
export function claudeAppsConfig(e: Endpoint): ClientConfig {
  return {
    where: "Claude (claude.ai or Claude Desktop): Settings → Connectors",
    snippet: e.url,
    language: "url",
    steps: [
      "Open Settings → Connectors and choose Add custom connector.",
      `Name it (for example ${e.name}) and paste the address above as the URL.`,
      e.private
        ? "Choose Add, then Connect: this site's sign-in page opens. Sign in, pick the spaces Claude may read and approve."
        : "Choose Add: a public wiki needs no sign-in.",
    ],
    notes: [
      "On Team and Enterprise plans an owner adds the connector in the organisation's settings first.",
      ...(e.private
        ? ["There is no field for a token: Claude keeps and refreshes the sign-in itself."]
        : []),
    ],
  };
}

/** Cursor: `mcp.json` with `url` and `headers`. */
export function cursorConfig(e: Endpoint): ClientConfig {
  return {
    where: "~/.cursor/mcp.json (every project) or .cursor/mcp.json (one project)",
    snippet: json({ mcpServers: { [e.name]: { url: e.url, ...headers(e) } } }),
    language: "json",
    notes: [],
  };
}

/**
 * VS Code: `.vscode/mcp.json`, whose server map is `servers` (not `mcpServers`) and whose
 * entries need `"type": "http"`. An `inputs` prompt keeps the token out of the file.
 */
export function vsCodeConfig(e: Endpoint): ClientConfig {
  const input = `${e.name}-token`;
  const server = {
    type: "http",
    url: e.url,
    ...(e.private ? { headers: { Authorization: `Bearer \${input:${input}}` } } : {}),
  };
  return {
    where: ".vscode/mcp.json in your workspace (or MCP: Open User Configuration)",
    snippet: json(
      e.private
        ? {
          inputs: [{
            type: "promptString",
            id: input,
            description: "Wiki token",
            password: true,
          }],
          servers: { [e.name]: server },
        }
        : { servers: { [e.name]: server } },
    ),
    language: "json",
    notes: e.private
      ? ["VS Code asks for the token once and stores it encrypted: it never lands in the file."]
      : [],
  };
}

/**
 * Gemini CLI: `settings.json`, the address under `url` with `"type": "http"` (Streamable HTTP),
 * as `gemini mcp add --transport http` writes it since 0.2x; `httpUrl` is deprecated there.
 */
export function geminiCliConfig(e: Endpoint): ClientConfig {
  return {
    where: "~/.gemini/settings.json (or .gemini/settings.json in a project)",
    snippet: json({ mcpServers: { [e.name]: { url: e.url, type: "http", ...headers(e) } } }),
    language: "json",
    notes: [
      `Or let Gemini CLI write it: gemini mcp add --transport http ${e.name} ${e.url}` +
      (e.private ? ` --header "Authorization: ${BEARER}"` : "") + ".",
      'Keep "type": "http": without it Gemini CLI reads url as an SSE address. The older ' +
      "httpUrl still works but Gemini CLI calls it deprecated.",
    ],
  };
}

/** Windsurf: `mcp_config.json`, the address under `serverUrl`. */
export function windsurfConfig(e: Endpoint): ClientConfig {
  return {
    where: "~/.codeium/windsurf/mcp_config.json (MCP panel → Configure)",
    snippet: json({ mcpServers: { [e.name]: { serverUrl: e.url, ...headers(e) } } }),
    language: "json",
    notes: [],
  };
}

/** Cline: `cline_mcp_settings.json` with the transport named, `"type": "streamableHttp"`. */
export function clineConfig(e: Endpoint): ClientConfig {
  return {
    where: "cline_mcp_settings.json (MCP Servers → Configure → Configure MCP Servers)",
    snippet: json({
      mcpServers: { [e.name]: { type: "streamableHttp", url: e.url, ...headers(e) } },
    }),
    language: "json",
    notes: [],
  };
}

/** The Anthropic Messages API's MCP connector: `mcp_servers` with `authorization_token`. */
export function anthropicApiConfig(e: Endpoint): ClientConfig {
  const body = {
    model: "claude-sonnet-4-5",
    max_tokens: 2000,
    mcp_servers: [{
      type: "url",
      url: e.url,
      name: e.name,
      ...(e.private ? { authorization_token: TOKEN_PLACEHOLDER } : {}),
    }],
    tools: [{ type: "mcp_toolset", mcp_server_name: e.name }],
    messages: [{ role: "user", content: QUESTION }],
  };
  return {
    where: "Your program, calling the Messages API (here with curl)",
    snippet: [
      "curl https://api.anthropic.com/v1/messages \\",
      '  -H "x-api-key: $ANTHROPIC_API_KEY" \\',
      '  -H "anthropic-version: 2023-06-01" \\',
      '  -H "anthropic-beta: mcp-client-2025-11-20" \\',
      '  -H "content-type: application/json" \\',
      `  -d ${shellQuote(json(body).replaceAll("\n", "\n  "))}`,
    ].join("\n"),
    language: "shell",
    notes: [
      ...(e.private ? ["authorization_token takes the token alone, without Bearer."] : []),
      "Anthropic's servers call the wiki: its address must be public, over https. Any current Claude model works.",
    ],
  };
}

/** The OpenAI Responses API: a `tools` entry of type `mcp`, the token in `authorization`. */
export function openAiResponsesConfig(e: Endpoint): ClientConfig {
  const body = {
    model: "gpt-5",
    tools: [{
      type: "mcp",
      server_label: e.name,
      server_url: e.url,
      ...(e.private ? { authorization: TOKEN_PLACEHOLDER } : {}),
      require_approval: "never",
    }],
    input: QUESTION,
  };
  return {
    where: "Your program, calling the Responses API (here with curl)",
    snippet: [
      "curl https://api.openai.com/v1/responses \\",
      '  -H "Authorization: Bearer $OPENAI_API_KEY" \\',
      '  -H "Content-Type: application/json" \\',
      `  -d ${shellQuote(json(body).replaceAll("\n", "\n  "))}`,
    ].join("\n"),
    language: "shell",
    notes: [
      ...(e.private
        ? [
          "OpenAI does not keep the token: send the tools entry, authorization included, on every call, follow-up turns too. It takes the token alone, without Bearer.",
        ]
        : []),
      "OpenAI's servers call the wiki: its address must be public, over https.",
    ],
  };
}

/** ChatGPT: an app (connector) in developer mode, signed in with OAuth. */
export function chatGptConfig(e: Endpoint): ClientConfig {
  return {
    where: "ChatGPT: Settings → Apps",
    snippet: e.url,
    language: "url",
    steps: [
      "Open Settings → Apps → Advanced settings and turn on Developer mode.",
      "Choose Create app; name it and paste the address above as the MCP server URL.",
      e.private
        ? "Set Authentication to OAuth, confirm, and create: this site's sign-in page opens. Sign in, pick the spaces and approve."
        : "Set Authentication to No authentication, confirm, and create.",
      "In a chat, turn the app on from the + menu.",
    ],
    notes: [
      "Developer mode is not offered on every ChatGPT plan, and its menus get renamed now and then.",
      ...(e.private ? ["There is no field for a token: ChatGPT signs in with OAuth."] : []),
    ],
  };
}

/** Every client the connect page covers, in the order it shows them. */
export const CLIENTS: Client[] = [
  { id: "claude-code", title: "Claude Code", config: claudeCodeConfig },
  {
    id: "claude",
    title: "Claude Desktop and claude.ai",
    oauthOnly: true,
    config: claudeAppsConfig,
  },
  { id: "chatgpt", title: "ChatGPT", oauthOnly: true, config: chatGptConfig },
  { id: "cursor", title: "Cursor", config: cursorConfig },
  { id: "vscode", title: "VS Code", config: vsCodeConfig },
  { id: "gemini-cli", title: "Gemini CLI", config: geminiCliConfig },
  { id: "windsurf", title: "Windsurf", config: windsurfConfig },
  { id: "cline", title: "Cline", config: clineConfig },
  { id: "anthropic-api", title: "Anthropic API (MCP connector)", config: anthropicApiConfig },
  { id: "openai-api", title: "OpenAI Responses API", config: openAiResponsesConfig },
];

/**
 * Whether assistants hosted elsewhere (claude.ai, ChatGPT, the API connectors) can reach an
 * address: https, and not a loopback or `.localhost` name.
 */
export function reachableFromInternet(baseUrl: string): boolean {
  const { protocol, hostname } = new URL(baseUrl);
  if (protocol !== "https:") return false;
  return !(hostname === "localhost" || hostname.endsWith(".localhost") ||
    hostname === "[::1]" || hostname.startsWith("127."));
}

function headers(e: Endpoint): { headers?: { Authorization: string } } {
  return e.private ? { headers: { Authorization: BEARER } } : {};
}

/** A single-quoted shell word: nothing inside is expanded. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/**
 * A client's configuration with a real token where the placeholder stands: the token page
 * shows these once, right after the token is made, so nobody edits one into the other.
 */
export function withToken(config: ClientConfig, token: string): ClientConfig {
  const fill = (text: string) => text.replaceAll(TOKEN_PLACEHOLDER, token);
  return {
    ...config,
    snippet: fill(config.snippet),
    ...(config.steps ? { steps: config.steps.map(fill) } : {}),
  };
}
