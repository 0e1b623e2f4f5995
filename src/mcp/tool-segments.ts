import { compareCodeUnits, pathProblem } from "../catalog/operation-path.js";
import { MAX_TOOL_SEGMENT_LENGTH } from "./limits.js";

/**
 * Path segments for tool names, in the order given. A name that is already a
 * usable segment keeps it; any other is spelled as an identifier (each
 * character outside [A-Za-z0-9_] becomes "_", a leading digit gets a "_"
 * prefix, a reserved word a "_" suffix), then, in code-unit order of the
 * names, made unique with "_2", "_3"… The result depends only on the set of
 * names, never on the order the server listed them in.
 */
export function toolSegments(names: readonly string[]): string[] {
  const segments = names.map((name) => (isUsableSegment(name) ? name : undefined));
  const taken = new Set(segments.filter((segment): segment is string => segment !== undefined));
  const pending = names
    .map((name, index) => ({ name, index }))
    .filter(({ index }) => segments[index] === undefined)
    .sort((a, b) => compareCodeUnits(a.name, b.name));
  for (const { name, index } of pending) {
    const segment = uniqueSegment(identifierFor(name), taken);
    taken.add(segment);
    segments[index] = segment;
  }
  return segments as string[];
}

// pathProblem knows the reserved words; a dotted name would pass it as several segments, hence the identifier test.
function isUsableSegment(name: string): boolean {
  return name.length <= MAX_TOOL_SEGMENT_LENGTH && IDENTIFIER.test(name) && pathProblem(`mcp.${name}`) === undefined;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

function identifierFor(name: string): string {
  const spelled = name.replace(/[^A-Za-z0-9_]/g, "_");
  const started = spelled === "" ? "tool" : /^[0-9]/.test(spelled) ? `_${spelled}` : spelled;
  const cut = started.slice(0, MAX_TOOL_SEGMENT_LENGTH);
  return isUsableSegment(cut) ? cut : `${cut}_`;
}

function uniqueSegment(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let suffix = 2; ; suffix += 1) {
    const candidate = `${base}_${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}
