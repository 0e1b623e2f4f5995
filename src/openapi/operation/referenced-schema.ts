import { ForageError } from "../../forage-error.js";
import { escapeToken, refTokens, resolveTokens } from "../../json-schema/json-pointer.js";
import type { JsonObject, JsonSchema, JsonValue } from "../../json-value.js";
import { MAX_EXPANDED_DEPTH } from "../limits.js";
import type { SourceSchema } from "../types.js";
import { normalizeSchema } from "./normalized-schema.js";
import type { OperationSite } from "./operation-sites.js";
import type { ParameterContext } from "./parameters.js";
import { readSuccessSchema } from "./responses.js";
import { readSourceInput } from "./source-input.js";

const SCHEMA_REF = /^#\/components\/schemas\/([^/]+)$/;

/**
 * The schemas of an operation whose references intake cannot inline (a schema that refers back
 * to itself, or one whose copies would exceed the expansion budget), read from the unresolved
 * spec: each `#/components/schemas/NAME` becomes a reference to `$defs/NAME` of the schema that
 * uses it, so a recursive type stays finite, and every other local reference (a shared parameter,
 * request body or response) is inlined. Shown not validated, never compiled. Undefined when a
 * reference does not resolve.
 */
export function referencedSourceSchema(
  root: JsonObject,
  site: OperationSite,
  context: Pick<ParameterContext, "credentialParameters" | "authParameter">,
): SourceSchema | undefined {
  const definitions = new Map<string, JsonValue>();
  try {
    const lift = (value: unknown): unknown => liftRefs(value, root, definitions, 0);
    // Only what intake reads of the operation: its Path Item's parameters and the operation itself.
    const item = { parameters: lift(resolveTokens(root, ["paths", site.path, "parameters"])) };
    const operation = lift(resolveTokens(root, ["paths", site.path, site.method.toLowerCase()]));
    if (!isRecord(operation)) return undefined;
    const $defs = Object.fromEntries([...definitions].map(([name, schema]) => [name, normalizeSchema(schema)]));
    const inputSchema: JsonObject = { ...readSourceInput(item, operation, context), $defs };
    const output = readSuccessSchema(operation.responses);
    const outputSchema = isRecord(output) ? ({ ...output, $defs } as JsonSchema) : undefined;
    return { inputSchema, ...(outputSchema === undefined ? {} : { outputSchema }) };
  } catch (error) {
    if (error instanceof ForageError) return undefined;
    throw error;
  }
}

/** A copy of `value` with schema references pointed at `$defs` (each target lifted once) and other references inlined. */
function liftRefs(value: unknown, root: JsonObject, definitions: Map<string, JsonValue>, chain: number): unknown {
  if (Array.isArray(value)) return value.map((entry) => liftRefs(entry, root, definitions, 0));
  if (!isRecord(value)) return value;
  const ref = value.$ref;
  if (typeof ref === "string") {
    const target = resolveRef(ref, root);
    const schema = SCHEMA_REF.exec(ref);
    if (schema === null) {
      // A reference chain with no schema between cannot loop forever.
      if (chain > MAX_EXPANDED_DEPTH) throw new ForageError("unsupported", `the reference ${ref} loops`);
      return liftRefs(target, root, definitions, chain + 1);
    }
    const name = (refTokens(ref) as string[])[2] as string;
    if (!definitions.has(name)) {
      definitions.set(name, {});
      definitions.set(name, liftRefs(target, root, definitions, 0) as JsonValue);
    }
    return { $ref: `#/$defs/${escapeToken(name)}` };
  }
  const copy: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) copy[key] = liftRefs(entry, root, definitions, 0);
  return copy;
}

function resolveRef(ref: string, root: JsonObject): unknown {
  const tokens = refTokens(ref);
  const target = tokens === undefined ? undefined : resolveTokens(root, tokens);
  if (target === undefined) throw new ForageError("invalid_spec", `the reference ${ref} does not resolve`);
  return target;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
