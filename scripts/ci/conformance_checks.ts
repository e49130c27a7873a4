/**
 * Turns one run of the MCP conformance suite (`server --requirements <revision> -o <dir>`) into
 * CI check lines: one "check: ok NAME" or "check: FAILED NAME" per scenario that applies to a
 * tools-only server (docs/decisions.md, "MCP conformance", says why the others do not). Within
 * an applicable scenario, only the checks listed in NOT_TESTABLE may fail: each needs a
 * diagnostic tool of the suite's own fixture server, which a real server does not have.
 *
 * Usage: deno run -A scripts/ci/conformance_checks.ts <output dir> <revision> <label>
 */

/** The conformance suite's scenarios of the Tasks extension (SEP-2663), run at 2026-07-28. */
const TASK_SCENARIOS = [
  "tasks-lifecycle",
  "tasks-capability-negotiation",
  "tasks-wire-fields",
  "tasks-request-state-removal",
  "tasks-mrtr-input",
  "tasks-request-headers",
  "tasks-dispatch-and-envelope",
  "tasks-status-notifications",
  "tasks-required-task-error",
  "tasks-mrtr-composition",
];

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
    // The Tasks extension (io.modelcontextprotocol/tasks), which every endpoint declares.
    ...TASK_SCENARIOS,
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
  // The task checks below call the suite's fixture tools (greet, slow_compute, failing_job,
  // protocol_error_job, confirm_delete, multi_input, test_tool_with_task), which a real server
  // does not have: `ask` is our only task tool. tests/mcp_tasks_test.ts checks the same rules
  // with `ask` (task created durably, polled, result inlined, cancel acknowledged, ttlMs).
  "tasks-lifecycle": [
    "tasks-sync-tool-call",
    "sep-2663-result-type-task-on-create",
    "sep-2663-tasks-get-status-working",
    "sep-2663-tasks-get-status-completed",
    "sep-2663-tool-error-uses-completed-status",
    "sep-2663-tasks-get-status-failed",
    "sep-2663-cancel-ack-empty-result",
    "tasks-cancel-terminal-idempotent-ack",
  ],
  "tasks-capability-negotiation": [
    "sep-2663-server-rejects-undeclared-client",
    "tasks-per-request-meta-opt-in",
  ],
  "tasks-wire-fields": [
    "tasks-wire-field-renames",
    "tasks-no-early-ttl-expiry",
    "tasks-no-related-task-meta-on-inlined-result",
  ],
  "tasks-request-state-removal": ["tasks-request-state-removal-setup"],
  "tasks-mrtr-input": [
    "sep-2663-tasks-get-status-input-required",
    "tasks-mrtr-tasks-update-resumes",
    "tasks-mrtr-partial-fulfillment",
  ],
  "tasks-request-headers": [
    "tasks-headers-tolerate-mcp-method-on-tools-call",
    "sep-2663-routing-headers-accepted-on-tasks-get",
    "sep-2663-server-rejects-mismatched-mcp-name-on-tasks-get",
  ],
  "tasks-dispatch-and-envelope": [
    "tasks-server-directed-creation-no-hint",
    "sep-2663-legacy-task-param-ignored",
    "tasks-immediate-result-shortcut",
    "tasks-result-type-complete-on-non-task-responses",
    "sep-2663-durable-create-strong-consistency",
  ],
  // Needs a tool whose tasks are required (taskSupport "required"); `ask` also answers at once.
  "tasks-required-task-error": ["sep-2663-server-returns-missing-capability-when-required"],
  "tasks-mrtr-composition": ["sep-2663-mrtr-synchronous-before-task-creation"],
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
