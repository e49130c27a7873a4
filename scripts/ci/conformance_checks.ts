/**
 * Turns one run of the MCP conformance suite (`server --requirements <revision> -o <dir>`) into
 * CI check lines: one "check: ok NAME" or "check: FAILED NAME" per scenario that applies to a
 * tools-only server (docs/decisions.md, "MCP conformance", says why the others do not). Within
 * an applicable scenario, only the checks listed in NOT_TESTABLE may fail: each needs a
 * diagnostic tool of the suite's own fixture server, which a real server does not have.
 *
 * Usage: deno run -A scripts/ci/conformance_checks.ts <output dir> <revision> <label>
 */

/** The scenarios every endpoint must pass, per protocol revision. */
export const APPLICABLE: Record<string, string[]> = {
  "2025-11-25": [
    "server-initialize",
    "ping",
    "tools-list",
    "dns-rebinding-protection",
    "server-session-lifecycle",
    "server-sse-multiple-streams",
    "server-sse-polling",
  ],
  "2026-07-28": [
    "server-stateless",
    "tools-list",
    "dns-rebinding-protection",
    "caching",
    "http-header-validation",
    "server-sse-multiple-streams",
    "sep-2164-resource-not-found",
    "input-required-result-missing-input-response",
    "input-required-result-unsupported-methods",
    "input-required-result-ignore-extra-params",
    "input-required-result-validate-input",
  ],
};

/** Checks that cannot pass without a capability or fixture tool a tools-only server lacks. */
export const NOT_TESTABLE: Record<string, string[]> = {
  "server-stateless": [
    // Needs the fixture tools test_missing_capability, test_streaming_elicitation and
    // test_logging_tool: our tools never ask the client for anything and never log to it.
    "sep-2575-server-rejects-undeclared-capability",
    "sep-2575-missing-capability-http-400",
    "sep-2575-http-server-no-independent-requests-on-stream",
    "sep-2575-server-no-log-without-loglevel",
  ],
  caching: [
    // A tools-only server has no prompts or resources lists to put cache hints on.
    "sep-2549-prompts-list-caching-hints",
    "sep-2549-resources-list-caching-hints",
    "sep-2549-resources-templates-list-caching-hints",
  ],
};

type Check = { id: string; status: string; errorMessage?: string };

if (import.meta.main) {
  const [dir, revision, label] = Deno.args;
  if (!dir || !revision || !label || !APPLICABLE[revision]) {
    console.error("usage: conformance_checks.ts <output dir> <2025-11-25|2026-07-28> <label>");
    Deno.exit(2);
  }
  const runs = new Map<string, string>();
  for await (const entry of Deno.readDir(dir)) {
    const scenario = entry.name.replace(/^server-/, "").replace(/-\d{4}-\d{2}-\d{2}T.*$/, "");
    runs.set(scenario, `${dir}/${entry.name}/checks.json`);
  }
  for (const scenario of APPLICABLE[revision]!) {
    const name = `conformance ${revision} ${scenario} on ${label}`;
    const file = runs.get(scenario);
    if (!file) {
      console.log(`check: FAILED ${name}\n    the suite did not run it`);
      continue;
    }
    const checks: Check[] = JSON.parse(await Deno.readTextFile(file));
    const allowed = new Set(NOT_TESTABLE[scenario] ?? []);
    const failing = checks.filter((c) => c.status === "FAILURE" || c.status === "ERROR");
    const failed = failing.filter((c) => !allowed.has(c.id));
    const passed = checks.filter((c) => c.status === "SUCCESS").length;
    const untestable = failing.length - failed.length;
    if (failed.length === 0) {
      const note = untestable > 0 ? `, ${untestable} not testable here` : "";
      console.log(`check: ok ${name} (${passed} passed${note})`);
    } else {
      console.log(`check: FAILED ${name}`);
      for (const c of failed) console.log(`    ${c.id}: ${c.errorMessage ?? c.status}`);
    }
  }
}
