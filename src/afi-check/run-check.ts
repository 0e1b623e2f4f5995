import { type AfiClient, type Exchange, TargetError, type Transport, timedOut } from "./afi-client.js";
import { type Manifest, manifestSchema } from "./afi-schemas.js";
import type { McpExtras } from "./mcp-client.js";
import { sampleProvider } from "./provider-sample.js";
import { recordingClient } from "./recording-client.js";
import { type CheckContext, type Group, type Scenario, ScenarioFailure } from "./scenario.js";
import { SCENARIOS } from "./scenario-table.js";

/** The highest profile the kit has scenarios for: AFI v0.1 leaves level 3's writes to a later AEP. */
const HIGHEST_TESTED_PROFILE = 2;

/** How one run is made. */
export interface CheckOptions {
  /** `--profile N`: test at most this level. */
  readonly profileCap?: number;
  /** Paths the caller's token may not see. */
  readonly hidden?: readonly string[];
  /** The same provider without the token (HTTP with --token). */
  readonly anonymous?: AfiClient;
  readonly mcp?: McpExtras;
  /** The whole run's budget in milliseconds. */
  readonly deadlineMs: number;
  /** The scenarios to run; the kit's own table by default. */
  readonly scenarios?: readonly Scenario[];
}

/** passed, failed, a SHOULD that failed (warned), or skipped with its reason. */
export type ScenarioStatus = "passed" | "failed" | "warned" | "skipped";

/** One scenario's outcome. */
export interface ScenarioResult {
  readonly id: string;
  readonly group: Group;
  readonly title: string;
  readonly level: number;
  readonly status: ScenarioStatus;
  /** Why it failed or was skipped. */
  readonly reason?: string;
  readonly evidence?: Exchange;
}

/** A whole run: what was declared, what was tested, each scenario, and the verdict. */
export interface CheckResult {
  readonly target: string;
  readonly transport: Transport;
  readonly provider?: string;
  readonly afiVersion?: string;
  readonly declaredProfile?: number;
  readonly testedProfile?: number;
  readonly notes: readonly string[];
  readonly results: readonly ScenarioResult[];
  /** True when every scenario at or below the tested profile that ran passed (warnings aside). */
  readonly conforms: boolean;
  /** How many requests got no answer within the per-request timeout. */
  readonly timeouts: number;
}

/**
 * Runs the kit against `client`: the manifest first (as AFI asks of every
 * client), then a walk of the provider for its own paths, then every scenario
 * the manifest declares, up to the tested profile. Throws a TargetError when
 * the target cannot be reached at all.
 */
export async function runCheck(target: AfiClient, options: CheckOptions): Promise<CheckResult> {
  const client = recordingClient(target, Date.now() + options.deadlineMs);
  const scenarios = options.scenarios ?? SCENARIOS;
  const manifestReply = await client.manifest();
  if (manifestReply.kind === "broken" && manifestReply.unreachable === true)
    throw new TargetError(`${target.target}: ${manifestReply.reason}`, timedOut(manifestReply));
  const raw = manifestReply.kind === "ok" ? (manifestReply.value as Record<string, unknown> | null) : null;
  const parsed = manifestSchema.safeParse(raw);
  const declared = typeof raw?.profile === "number" ? raw.profile : undefined;
  const notes: string[] = [];
  const tested = testedProfile(declared, options.profileCap, notes);
  if (typeof raw?.afi_version === "string" && raw.afi_version !== "0.1")
    notes.push(`the provider targets AFI ${raw.afi_version}; the kit checks AFI 0.1`);
  const manifest = parsed.success ? parsed.data : undefined;
  const canRead = manifest?.capabilities.includes("read") === true && (tested ?? 0) >= 1;
  const sample =
    manifest === undefined ? { directories: [], files: [], symlinks: [] } : await sampleProvider(client, canRead);
  const context: CheckContext = {
    client,
    manifest: manifest ?? ({} as Manifest),
    manifestReply,
    sample,
    errors: client.errors,
    hidden: options.hidden ?? [],
    ...(options.anonymous === undefined ? {} : { anonymous: options.anonymous }),
    ...(options.mcp === undefined ? {} : { mcp: options.mcp }),
  };
  const results: ScenarioResult[] = [];
  for (const scenario of scenarios) {
    const row = { id: scenario.id, group: scenario.group, title: scenario.title, level: scenario.level };
    const skip = skipReason(scenario, context, manifest, tested);
    results.push(
      skip === undefined
        ? { ...row, ...(await outcome(scenario, context)) }
        : { ...row, status: "skipped", reason: skip },
    );
  }
  return {
    target: target.target,
    transport: target.transport,
    ...(typeof raw?.provider === "string" ? { provider: raw.provider } : {}),
    ...(typeof raw?.afi_version === "string" ? { afiVersion: raw.afi_version } : {}),
    ...(declared === undefined ? {} : { declaredProfile: declared }),
    ...(tested === undefined ? {} : { testedProfile: tested }),
    notes,
    results,
    conforms: manifest !== undefined && results.every((result) => result.status !== "failed"),
    timeouts: client.timeouts(),
  };
}

/** The declared profile, capped by --profile and by the kit's own reach; undefined when none is declared. */
function testedProfile(declared: number | undefined, cap: number | undefined, notes: string[]): number | undefined {
  if (declared === undefined) return undefined;
  if (cap !== undefined && cap > declared)
    notes.push(`--profile ${cap} asks more than the declared profile ${declared}: testing ${declared}`);
  if (declared > HIGHEST_TESTED_PROFILE)
    notes.push(
      `profile ${declared} declared; the kit tests up to ${HIGHEST_TESTED_PROFILE} (level 3 is draft-frozen in AFI 0.1)`,
    );
  return Math.min(declared, cap ?? declared, HIGHEST_TESTED_PROFILE);
}

function skipReason(
  scenario: Scenario,
  context: CheckContext,
  manifest: Manifest | undefined,
  tested: number | undefined,
): string | undefined {
  // Without a manifest only the scenarios that judge the manifest itself can run.
  if (manifest === undefined && scenario.id !== "discovery-01" && scenario.id !== "discovery-02")
    return "the manifest did not pass Discovery";
  if (tested !== undefined && scenario.level > tested)
    return `not declared: profile ${scenario.level} is above ${tested}`;
  const needs = scenario.needs ?? (scenario.level === 2 ? "search" : scenario.level === 1 ? "read" : undefined);
  if (needs !== undefined && manifest !== undefined && !manifest.capabilities.includes(needs))
    return `not declared: capabilities lack ${needs}`;
  const only = scenario.only;
  if (only !== undefined && !only.transports.includes(context.client.transport))
    return `not over ${context.client.transport.toUpperCase()}: ${only.because}`;
  return undefined;
}

async function outcome(
  scenario: Scenario,
  context: CheckContext,
): Promise<Pick<ScenarioResult, "status" | "reason" | "evidence">> {
  try {
    const verdict = await scenario.run(context);
    return verdict === "pass" ? { status: "passed" } : { status: "skipped", reason: verdict.skip };
  } catch (error) {
    const status = scenario.should === true ? "warned" : "failed";
    if (error instanceof ScenarioFailure)
      return { status, reason: error.message, ...(error.evidence === undefined ? {} : { evidence: error.evidence }) };
    return { status, reason: `the kit could not run it: ${error instanceof Error ? error.message : String(error)}` };
  }
}
