import { operationTypescript } from "../../describe/declaration-text.js";
import { type DeclarationSource, UndeclarableSchemaError } from "../../describe/operation-declaration.js";
import { sampleCall } from "../../describe/sample-call.js";
import type { UnvalidatedOperation } from "../source-info.js";
import { INDEX_LINE, type LineShape, operationLine } from "../text/index-lines.js";
import { inputNames } from "../text/input-names.js";
import { cutText, oneLine } from "../text/text-pages.js";
import { withNullTypes } from "./nullable-schema.js";

/** What marks an operation Forage did not validate, wherever the tree names one (indexes, search, declarations). */
export const UNVALIDATED_MARK = "[not validated]";

/** A not-validated operation at its full dotted path (the source's namespace, then its segment). */
export interface UnvalidatedSubject {
  readonly path: string;
  readonly operation: UnvalidatedOperation;
}

/** The capability note every not-validated operation carries, so its JSDoc and `.json` say so beside its HTTP method. */
function caveat(reason: string): string {
  return `not validated by Forage: the source's own schema, shown as declared (${reason})`;
}

/** Its capability notes: the source's (its HTTP method and path, its MCP hints), then the caveat. */
function capabilitiesOf(operation: UnvalidatedOperation): string[] {
  return [...operation.capabilities, caveat(operation.reason)];
}

function declarationSource({ path, operation }: UnvalidatedSubject): DeclarationSource {
  return {
    path,
    description: operation.description ?? operation.summary ?? "",
    capabilities: capabilitiesOf(operation),
    instructions: undefined,
    inputSchema: withNullTypes(operation.inputSchema),
    outputSchema: operation.outputSchema === undefined ? undefined : withNullTypes(operation.outputSchema),
  };
}

/**
 * The `.d.ts` of a not-validated operation: declared as a described one is, from the source's
 * own schemas, so that its constraints (format, pattern, bounds) are JSDoc tags and `tsc` checks
 * a call's shape, under a header saying that Forage did not validate it and why. A schema with no
 * TypeScript type (a direct self-reference) is declared `unknown` rather than left without a file.
 */
export function unvalidatedTypescript(subject: UnvalidatedSubject): string {
  const header = `// ${UNVALIDATED_MARK} Forage did not validate this operation: its types come from the source's own schema,
// whose constraints TypeScript cannot check are the JSDoc tags (@format, @pattern, bounds).
// Why: ${oneLine(subject.operation.reason)}
`;
  const source = declarationSource(subject);
  try {
    return header + operationTypescript(source);
  } catch (error) {
    if (!(error instanceof UndeclarableSchemaError)) throw error;
    return header + operationTypescript({ ...source, inputSchema: true, outputSchema: undefined });
  }
}

/** A short call of the operation with placeholders for its required input, as a described operation's sample. */
export function unvalidatedSample({ path, operation }: UnvalidatedSubject): string {
  return sampleCall(path, operation.inputSchema);
}

/**
 * The `.json` of a not-validated operation: a described operation's fields, with `"validated": false`
 * and the reason, and the schemas exactly as the source declares them.
 */
export function unvalidatedJson(subject: UnvalidatedSubject): string {
  const { path, operation } = subject;
  const json = {
    path,
    validated: false,
    reason: operation.reason,
    description: operation.description ?? operation.summary ?? "",
    capabilities: capabilitiesOf(operation),
    sample: unvalidatedSample(subject),
    inputSchema: operation.inputSchema,
    outputSchema: operation.outputSchema,
  };
  return `${JSON.stringify(json, null, 2)}\n`;
}

/**
 * Its index line: a described operation's line (within `shape`, named `shown`), marked, so grep and
 * a reader find it as the operation it is; the mark counts in the line's bound.
 */
export function unvalidatedIndexLine(
  subject: UnvalidatedSubject,
  shape: LineShape = INDEX_LINE,
  shown = subject.path,
): string {
  const { path, operation } = subject;
  const mark = `${UNVALIDATED_MARK} `;
  const facts = {
    path,
    description: operation.description ?? operation.summary ?? "",
    sample: unvalidatedSample(subject),
    inputs: inputNames(operation.inputSchema),
  };
  const narrowed = { ...shape, limit: shape.limit - mark.length, signature: shape.signature - mark.length };
  return cutText(`${mark}${operationLine(facts, narrowed, shown)}`, INDEX_LINE.limit);
}

/** " (3 not validated)" after an operation count, or nothing when there are none. */
export function unvalidatedCount(count: number | undefined): string {
  return count === undefined || count === 0 ? "" : ` (${count} not validated)`;
}
