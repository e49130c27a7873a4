import assert from "node:assert/strict";
import { askHandbook } from "./ask_handbook.ts";

// A name the question asks about that the wiki never writes leaves the answer `partial`
// (src/ask/absent_names.ts): through REST, as a program asks.

const HANDBOOK: Record<string, string> = {
  "clustering": "# Clustering\n\n## Running a cluster\n\nBecause the clustering protocol " +
    "gossips the members of the cluster, all servers are able to discover the other servers " +
    "in the cluster. Each server only needs the address of one seed server to join.\n",
  "signals": "# Signals\n\n## Stopping the server\n\nSend `SIGTERM` or `SIGINT` to stop the " +
    "server cleanly: it finishes the requests in flight and flushes its store first.\n",
  "backfill": "# Backfilling\n\n## Block durations\n\nBy default the backfilling tool writes " +
    "blocks of two hours. The `--max-block-duration` flag sets the longest block duration the " +
    "tool writes, for backfilling long ranges faster.\n",
};

Deno.test("ask: a question about a product the wiki never names is not called supported", async () => {
  const [consul, plain, besides] = await askHandbook(HANDBOOK, [
    "Can cluster members discover each other through Consul?",
    "How do the servers of a cluster discover each other?",
    "Other than Ctrl-C, which signals stop the server cleanly?",
  ]);
  assert.notEqual(consul!.coverage, "supported", JSON.stringify(consul));
  assert.match(consul!.frontier.map((n) => n.note).join("\n"), /"consul"/i);
  // Without the name, the same page answers; a name set aside as given is not asked about.
  assert.equal(plain!.coverage, "supported", JSON.stringify(plain));
  assert.equal(besides!.coverage, "supported", JSON.stringify(besides));
  assert.match(besides!.answer, /SIGTERM/);
});

Deno.test("ask: a flag the wiki never writes is not answered by a flag that shares its words", async () => {
  const [absent, written] = await askHandbook(HANDBOOK, [
    "What's the default value of the --min-block-duration flag?",
    "What does the --max-block-duration flag set?",
  ]);
  assert.notEqual(absent!.coverage, "supported", JSON.stringify(absent));
  assert.equal(written!.coverage, "supported", JSON.stringify(written));
});

Deno.test("ask: a word in lower case that is not English and the wiki never writes is a name too", async () => {
  const handbook = {
    ...HANDBOOK,
    "logging": "# Logging\n\n## Remote logging\n\nThe server can forward its log to a remote " +
      "log server over TCP. Set `log_forward_address` to the remote server's address and port.\n",
  };
  const [syslog, plain, story] = await askHandbook(handbook, [
    "How do I forward the server's log to a remote syslog server?",
    "How do I forward the server's log to a remote log server?",
    // English words the wiki does not use are the question's own words, not names.
    "How do I forward the server's log to a remote log server on another continent?",
  ]);
  assert.notEqual(syslog!.coverage, "supported", JSON.stringify(syslog));
  assert.match(syslog!.frontier.map((n) => n.note).join("\n"), /"syslog"/i);
  assert.equal(plain!.coverage, "supported", JSON.stringify(plain));
  assert.match(story!.answer, /log_forward_address/);
  assert.equal(story!.coverage, "supported", JSON.stringify(story));
});
