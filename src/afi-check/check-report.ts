import { PROFILE_NAMES } from "./afi-schemas.js";
import type { CheckResult, ScenarioResult } from "./run-check.js";
import { GROUPS } from "./scenario.js";

/** Width the group names are dotted out to in the table. */
const TABLE_WIDTH = 34;

/** One group's counts. */
export interface GroupCounts {
  readonly group: string;
  readonly passed: number;
  readonly failed: number;
  readonly warned: number;
  readonly skipped: number;
}

/** The kit's table: each group's counts, in the kit's order. */
export function groupCounts(result: CheckResult): GroupCounts[] {
  return GROUPS.map((group) => {
    const rows = result.results.filter((row) => row.group === group);
    const count = (status: ScenarioResult["status"]) => rows.filter((row) => row.status === status).length;
    return {
      group,
      passed: count("passed"),
      failed: count("failed"),
      warned: count("warned"),
      skipped: count("skipped"),
    };
  });
}

function profileName(profile: number | undefined): string {
  return profile === undefined ? "none" : `${profile} (${PROFILE_NAMES[profile] ?? "unknown"})`;
}

/** The verdict in one sentence. */
function verdictLine(result: CheckResult): string {
  if (result.testedProfile === undefined) return "The provider declares no profile: it does NOT conform.";
  return result.conforms
    ? `The provider conforms to profile ${result.testedProfile}.`
    : `The provider does NOT conform to profile ${result.testedProfile}.`;
}

/** One line per scenario that failed or warned: its id, what should hold, why not, and the evidence. */
function problemLine(row: ScenarioResult): string {
  const mark = row.status === "failed" ? "✗" : "!";
  const evidence = row.evidence === undefined ? "" : `; sent ${row.evidence.sent}; got ${row.evidence.got}`;
  return `  ${mark} ${row.id} ${row.title}: ${row.reason ?? ""}${evidence}`;
}

/** The report as text (docs/afi.md, "Conformance kit"): header, table, failures and warnings, verdict. */
export function textReport(result: CheckResult, kitVersion: string): string {
  const lines = [
    `AFI conformance kit (forage afi-check ${kitVersion}), AFI 0.1`,
    `Target: ${result.target} (${result.transport})`,
    `Provider: ${result.provider ?? "(unknown)"}, AFI ${result.afiVersion ?? "(unknown)"}`,
    `Declared profile: ${profileName(result.declaredProfile)}; testing ${profileName(result.testedProfile)}`,
    ...result.notes.map((note) => `Note: ${note}`),
    "",
  ];
  for (const counts of groupCounts(result)) {
    const ran = counts.passed + counts.failed + counts.warned;
    const verdict = counts.failed > 0 ? "FAIL" : ran === 0 ? "SKIP" : "PASS";
    const extra = [
      counts.failed > 0 ? `${counts.failed} failed` : "",
      counts.warned > 0 ? `${counts.warned} warned` : "",
      counts.skipped > 0 ? `${counts.skipped} skipped` : "",
    ].filter((part) => part !== "");
    const label = `${counts.group} `.padEnd(TABLE_WIDTH, ".");
    lines.push(
      `${label} ${`${counts.passed}/${ran}`.padEnd(6)}${verdict}${extra.length > 0 ? `  (${extra.join(", ")})` : ""}`,
    );
    for (const row of result.results)
      if (row.group === counts.group && (row.status === "failed" || row.status === "warned"))
        lines.push(problemLine(row));
  }
  const all = result.results;
  const ran = all.filter((row) => row.status !== "skipped");
  lines.push(
    "",
    `Result: ${ran.filter((row) => row.status === "passed").length}/${ran.length} scenarios passed, ${all.length - ran.length} skipped`,
    verdictLine(result),
  );
  return `${lines.join("\n")}\n`;
}

/** The report as JSON for machines: the same facts, every scenario with its status. */
export function jsonReport(result: CheckResult, kitVersion: string): string {
  return `${JSON.stringify({ kit: `forage afi-check ${kitVersion}`, ...result, groups: groupCounts(result) }, null, 2)}\n`;
}
