import http from "node:http";

/**
 * A loopback proxy that adds `Authorization: Bearer <token>` to every request it forwards, so
 * tools without a header option (the MCP conformance suite) can test the private `/mcp/`
 * endpoint. Everything else passes through unchanged, the Host header included (node:http
 * sends it as given, where fetch would replace it), so the server's DNS-rebinding check
 * sees what the client sent.
 *
 * Usage: deno run -A scripts/ci/bearer_proxy.ts <port> <target port> <token>
 */
const [port, targetPort, token] = Deno.args;
if (!port || !targetPort || !token) {
  console.error("usage: bearer_proxy.ts <port> <target port> <token>");
  Deno.exit(2);
}
http.createServer((incoming, outgoing) => {
  const upstream = http.request({
    host: "127.0.0.1",
    port: Number(targetPort),
    method: incoming.method,
    path: incoming.url,
    headers: { ...incoming.headers, authorization: `Bearer ${token}` },
  }, (answer) => {
    outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(outgoing);
  });
  upstream.on("error", () => outgoing.writeHead(502).end());
  incoming.pipe(upstream);
}).listen(Number(port), "127.0.0.1");
