#!/usr/bin/env bash
# Live MCP checks against a real server on loopback: the MCP Inspector CLI lists and calls the
# tools of each endpoint, and the official conformance suite (0.1.16, and 0.2.0-alpha.12 for both
# protocol revisions on all three endpoints) runs the scenarios that apply to a server without
# the suite's own fixtures. Prints "check: ok NAME" or "check: FAILED NAME" lines.
set -uo pipefail
cd "$(dirname "$0")/../.."

port=${MCP_CHECK_PORT:-8765}
base="http://localhost:$port"
data=$(mktemp -d)
export DATA_DIR=$data PORT=$port BASE_URL=$base NO_COLOR=1 LOG_LEVEL=warn
conformance="npm:@modelcontextprotocol/conformance@0.1.16"
alpha="npm:@modelcontextprotocol/conformance@0.2.0-alpha.12"
proxy_port=$((port + 1))

# With DATABASE_URL, the server's store is a database of its own on that PostgreSQL server, made
# here and dropped at the end (named as the throwaway stores are, so a later run drops it if this
# shell was killed); else PGlite in the data folder. CI passes its PostgreSQL: PGlite's
# WebAssembly made the set-up below alone cost ~15 s of CPU per command against ~2 s.
admin_url=""
if [ -n "${DATABASE_URL:-}" ]; then
  db_name="wiki_tmp_p$$_mcp_checks"
  if psql -q "$DATABASE_URL" -c "CREATE DATABASE $db_name" >/dev/null 2>&1; then
    admin_url=$DATABASE_URL
    export DATABASE_URL="${DATABASE_URL%/*}/$db_name"
  else
    echo "no database could be made on DATABASE_URL: the checks serve PGlite"
    export DATABASE_URL=""
  fi
fi
drop_database() {
  [ -n "$admin_url" ] && psql -q "$admin_url" -c "DROP DATABASE IF EXISTS $db_name WITH (FORCE)" >/dev/null 2>&1
  return 0
}

# Set up an account, a space with a page and a token while the store is free, then serve.
deno task admin create-account --email ci@example.com >/dev/null 2>&1
deno task admin create-space --id ci-space --owner ci@example.com --title "CI space" >/dev/null 2>&1
mkdir -p "$data/pages" && printf '# Runbook\nRestart the service with care.\n' >"$data/pages/Runbook.md"
deno task import ci-space "$data/pages" >/dev/null 2>&1
token=$(deno task admin create-token --email ci@example.com --name ci 2>/dev/null | tail -n 1)

deno task start >"$data/server.log" 2>&1 &
server=$!
# The suite has no header option: a loopback proxy adds the token for the private endpoint.
deno run -A scripts/ci/bearer_proxy.ts "$proxy_port" "$port" "$token" >"$data/proxy.log" 2>&1 &
proxy=$!
trap 'kill $server $proxy 2>/dev/null; wait $server $proxy 2>/dev/null; drop_database; rm -rf "$data"' EXIT
# Up to three minutes: CI runs these checks beside the PGlite test suite.
for _ in $(seq 1 360); do
  curl -sf "$base/healthz" >/dev/null 2>&1 && break
  sleep 0.5
done

check() { # name, expected text, command...
  local name=$1 expect=$2
  shift 2
  local out
  out=$(timeout 120 "$@" 2>&1)
  if grep -q -- "$expect" <<<"$out"; then
    echo "check: ok $name"
  else
    echo "check: FAILED $name"
    tail -n 15 <<<"$out" | sed 's/^/    /'
  fi
}

# The Inspector from its pinned tree (scripts/ci/inspector/: package-lock.json, vite held at
# 8.3.8), installed with npm and run by Deno from that folder's node_modules. `deno run npm:…`
# resolved the Inspector's ranges afresh, and vite 8.4.0 lists an optional dependency the registry
# does not have, which npm skips and Deno refuses; without npm the checks say so and fail.
if command -v npm >/dev/null &&
  cp scripts/ci/inspector/package.json scripts/ci/inspector/package-lock.json "$data/" &&
  (cd "$data" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null 2>&1); then
  cli=(env -C "$data" deno run -A node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js
    --cli --transport http)
else
  cli=(echo "the pinned Inspector could not be installed (npm ci in scripts/ci/inspector/'s copy)")
fi
check "inspector lists the hub's tools" '"list_wikis"' "${cli[@]}" "$base/mcp/hub/" --method tools/list
check "inspector calls list_wikis on the hub" '"id": "docs"' "${cli[@]}" "$base/mcp/hub" --method tools/call --tool-name list_wikis
check "inspector searches /mcp/w/docs/" '"page":' "${cli[@]}" "$base/mcp/w/docs/" --method tools/call --tool-name search --tool-arg query=tokens
check "inspector lists the private endpoint's tools" '"my_spaces"' "${cli[@]}" "$base/mcp/" --method tools/list --header "Authorization: Bearer $token"
check "inspector searches a space on /mcp/" '"page": "Runbook"' "${cli[@]}" "$base/mcp" --method tools/call --tool-name search --tool-arg query=restart --header "Authorization: Bearer $token"

for endpoint in mcp/hub/ mcp/w/docs/; do
  for scenario in server-initialize ping tools-list dns-rebinding-protection; do
    check "conformance $scenario on /$endpoint" ", 0 failed" deno run -A "$conformance" server --url "$base/$endpoint" --scenario "$scenario"
  done
done

check "unauthenticated GET /mcp/ gets the 401 challenge" 'HTTP/1.1 401' \
  curl -si "$base/mcp/" -H "Accept: text/event-stream"

# The MCP Apps view is served as its resource; ask runs as a task where the client declares the
# Tasks extension (2026-07-28).
check "the wiki view is a ui:// resource on the hub" '"mimeType":"text/html;profile=mcp-app"' \
  curl -s "$base/mcp/hub/" -H "Content-Type: application/json" \
  -H "Accept: application/json, text/event-stream" -H "MCP-Protocol-Version: 2025-11-25" \
  --data '{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"ui://knowledge-wiki/view.html"}}'
check "ask runs as a task on /mcp/w/docs/" '"resultType":"task"' \
  curl -s "$base/mcp/w/docs/" -H "Content-Type: application/json" \
  -H "Accept: application/json, text/event-stream" -H "MCP-Protocol-Version: 2026-07-28" \
  -H "Mcp-Method: tools/call" -H "Mcp-Name: ask" \
  --data '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask","arguments":{"question":"Which port do I open?"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}}}'

# 0.2.0-alpha.12: every scenario a revision requires, once per endpoint and revision; one check
# line per scenario that applies to a tools-only server (scripts/ci/conformance_checks.ts).
for target in "hub $base/mcp/hub/" "w/docs $base/mcp/w/docs/" "private http://localhost:$proxy_port/mcp/"; do
  read -r label url <<<"$target"
  for revision in 2025-11-25 2026-07-28; do
    out="$data/conformance-${label//\//-}-$revision"
    timeout 600 deno run -A "$alpha" server --url "$url" --requirements "$revision" -o "$out" \
      >"$out.log" 2>&1
    deno run -A scripts/ci/conformance_checks.ts "$out" "$revision" "/mcp/${label%/}/" 2>&1 |
      sed 's|/mcp/private/|/mcp/|'
  done
done
