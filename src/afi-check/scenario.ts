import type { AfiClient, Exchange, Reply, Transport } from "./afi-client.js";
import { evidenceJson } from "./afi-client.js";
import type { Manifest } from "./afi-schemas.js";
import type { McpExtras } from "./mcp-client.js";
import type { ProviderSample } from "./provider-sample.js";

/** The kit's groups, in the order of AFI's test kit plan (AFI conformance/test-kit, "Scenario groups"). */
export const GROUPS = ["Discovery", "Path model", "stat / list", "read", "search", "Access control", "Errors"] as const;

/** One group of the table. */
export type Group = (typeof GROUPS)[number];

/** What a scenario has to work with. */
export interface CheckContext {
  readonly client: AfiClient;
  /** The manifest, once it passed its schema; scenarios past Discovery run only with one. */
  readonly manifest: Manifest;
  /** The manifest as it came, for Discovery. */
  readonly manifestReply: Reply;
  readonly sample: ProviderSample;
  /** Every error answer of the run so far, for the Errors group. */
  readonly errors: readonly Reply[];
  /** Paths the caller's token may not see (`--hidden`), for Access control. */
  readonly hidden: readonly string[];
  /** The same provider asked without the token, where the transport can (HTTP). */
  readonly anonymous?: AfiClient;
  /** What only an MCP server has: its tool list and resources. */
  readonly mcp?: McpExtras;
}

/** A scenario's own verdict; a failure is thrown as a ScenarioFailure. */
export type Verdict = "pass" | { readonly skip: string };

/** One row of the kit's table. */
export interface Scenario {
  /** Stable: `<group>-NN`, numbered in the order of AFI's test kit plan, the kit's additions after. */
  readonly id: string;
  readonly group: Group;
  readonly title: string;
  /** The lowest profile the scenario belongs to. */
  readonly level: 0 | 1 | 2;
  /** The capability it exercises, when it is not implied by the level. */
  readonly needs?: string;
  /** The transports it can be expressed over, with the reason for the others; all when absent. */
  readonly only?: { readonly transports: readonly Transport[]; readonly because: string };
  /** A SHOULD of AFI: a failure is a warning and does not fail the profile. */
  readonly should?: true;
  run(context: CheckContext): Promise<Verdict>;
}

/** A scenario that did not hold: why, and the exchange that shows it. */
export class ScenarioFailure extends Error {
  override readonly name = "ScenarioFailure";
  constructor(
    message: string,
    readonly evidence?: Exchange,
  ) {
    super(message);
  }
}

/** Fails the scenario with `reason`, showing `reply` as evidence. */
export function fail(reason: string, reply?: Exchange): never {
  throw new ScenarioFailure(reason, reply === undefined ? undefined : { sent: reply.sent, got: reply.got });
}

/** The value of a successful reply; anything else fails the scenario, saying what was expected. */
export function okValue<T>(reply: Reply<T>, expected: string): T {
  if (reply.kind === "ok") return reply.value;
  fail(`expected ${expected}, got ${replySummary(reply)}`, reply);
}

/** Passes when the reply is the AFI error `code`; anything else fails the scenario. */
export function expectCode(reply: Reply, code: string): void {
  if (reply.kind === "error" && errorCode(reply) === code) return;
  fail(`expected ${code}, got ${replySummary(reply)}`, reply);
}

/** The `code` of an error reply, if it has one. */
export function errorCode(reply: Reply): unknown {
  return reply.kind === "error" ? (reply.error as { code?: unknown } | null)?.code : undefined;
}

/** Every letter in the other case: the probe of case sensitivity. */
export function flipCase(text: string): string {
  return [...text].map((char) => (char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase())).join("");
}

/** A reply in a few words: "a result", "not_found", "no answer within 10000 ms". */
export function replySummary(reply: Reply): string {
  if (reply.kind === "ok") return `a result (${evidenceJson(reply.value)})`;
  if (reply.kind === "broken") return reply.reason;
  const code = errorCode(reply);
  // The error itself is in the evidence beside this summary.
  return typeof code === "string" ? code : "an error without a code";
}
