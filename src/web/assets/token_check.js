// "Test this connection" on the token page, right after a token is made: calls the private
// MCP endpoint with that token, as an assistant would (initialize, then my_spaces for an
// account token or list_pages for a space token), and says what the token reaches or why it
// was refused. Nothing is stored; the token never leaves this page but for /mcp/ itself.
(() => {
  const section = document.querySelector("[data-token-check]");
  const button = section && section.querySelector("[data-check-token]");
  const result = section && section.querySelector("[data-check-result]");
  if (!button || !result) return;
  const token = section.dataset.tokenCheck;
  button.hidden = false;
  let id = 0;
  async function rpc(method, params) {
    const res = await fetch("/mcp/", {
      method: "POST",
      headers: {
        "Authorization": `Bearer ${token}`,
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2025-11-25",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }),
    });
    if (!res.ok) throw new Error(`the server answered ${res.status}`);
    const text = await res.text();
    const data = text.startsWith("{")
      ? text
      : text.split("\n").find((l) => l.startsWith("data:"))?.slice(5);
    const message = JSON.parse(data ?? "{}");
    if (message.error) throw new Error(message.error.message);
    return message.result;
  }
  button.addEventListener("click", async () => {
    result.textContent = "Connecting…";
    try {
      const init = await rpc("initialize", {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "token-page-check", version: "1" },
      });
      const server = init.serverInfo?.name ?? "the server";
      const spaces = await rpc("tools/call", { name: "my_spaces", arguments: {} });
      const listed = spaces.structuredContent?.spaces;
      if (!spaces.isError && Array.isArray(listed)) {
        result.textContent = `Connected to ${server}: this token reaches ${listed.length} ` +
          `space${listed.length === 1 ? "" : "s"}${
            listed.length ? `: ${listed.map((s) => s.id).join(", ")}` : ""
          }.`;
        return;
      }
      const pages = await rpc("tools/call", { name: "list_pages", arguments: {} });
      const count = pages.structuredContent?.pages?.length ?? 0;
      result.textContent = pages.isError
        ? `Connected to ${server}, but reading failed: ${
          pages.content?.[0]?.text ?? "unknown error"
        }`
        : `Connected to ${server}: this token opens one space (${count} pages listed).`;
    } catch (error) {
      result.textContent = `Not connected: ${error.message}`;
    }
  });
})();
