import { ForageError } from "../../forage-error.js";
import { escapeToken, refTokens, resolveTokens } from "../../json-schema/json-pointer.js";
import type { JsonObject, JsonSchema, JsonValue } from "../../json-value.js";
import { MAX_EXPANDED_DEPTH } from "../limits.js";
import { PROTOTYPE_NAMES } from "../spec/spec-limits.js";
import type { SourceSchema } from "../types.js";
import { normalizeSchema } from "./normalized-schema.js";
import type { OperationSite } from "./operation-sites.js";
import type { ParameterContext } from "./parameters.js";
import { isSuccessStatus, readSuccessSchema } from "./responses.js";
import { readSourceInput } from "./source-input.js";

const SCHEMA_REF = /^#\/components\/schemas\/([^/]+)$/;

/**
 * The schemas of an operation whose references intake cannot inline (a schema that refers back
 * to itself, or one whose copies would exceed the expansion budget), read from the unresolved
 * spec: each `#/components/schemas/NAME` becomes a reference to `$defs/NAME` of the schema that
 * uses it, so a recursive type stays finite, and every other local reference (a shared parameter,
 * request body or response) is inlined. Shown not validated, never compiled. Undefined when a
 * reference does not resolve, or when one that is not a component schema refers back to itself.
 */
export function referencedSourceSchema(
  root: JsonObject,
  site: OperationSite,
  context: Pick<ParameterContext, "credentialParameters" | "authParameter">,
): SourceSchema | undefined {
  try {
    const lifter = new RefLifter(root);
    // Only what intake reads: the Path Item's parameters, the operation's, its body and its success responses.
    const item = { parameters: lifter.lift(resolveTokens(root, ["paths", site.path, "parameters"])) };
    const declared = resolveTokens(root, ["paths", site.path, site.method.toLowerCase()]);
    if (!isRecord(declared)) return undefined;
    const operation = lifter.lift({
      parameters: declared.parameters,
      requestBody: declared.requestBody,
      responses: successResponses(declared.responses),
    }) as Record<string, unknown>;
    const $defs = Object.fromEntries([...lifter.definitions].map(([name, schema]) => [name, normalizeSchema(schema)]));
    const inputSchema = withReachableDefs(readSourceInput(item, operation, context), $defs);
    const output = readSuccessSchema(operation.responses);
    const outputSchema = isRecord(output) ? (withReachableDefs(output as JsonObject, $defs) as JsonSchema) : undefined;
    return { inputSchema, ...(outputSchema === undefined ? {} : { outputSchema }) };
  } catch (error) {
    if (error instanceof ForageError) return undefined;
    throw error;
  }
}

/**
 * Copies with each component schema reference pointed at `$defs` (its target lifted once) and
 * every other reference inlined. An inlined reference met again inside itself is a loop no
 * `$defs` entry can break, and is refused, as is nesting past MAX_EXPANDED_DEPTH.
 */
class RefLifter {
  readonly definitions = new Map<string, JsonValue>();
  readonly #root: JsonObject;
  readonly #inlining = new Set<string>();

  constructor(root: JsonObject) {
    this.#root = root;
  }

  lift(value: unknown, depth = 0): unknown {
    if (depth > MAX_EXPANDED_DEPTH) throw new ForageError("unsupported", "the schema nests too deeply");
    if (Array.isArray(value)) return value.map((entry) => this.lift(entry, depth + 1));
    if (!isRecord(value)) return value;
    if (typeof value.$ref === "string") return this.#liftRef(value.$ref, depth);
    const copy: Record<string, unknown> = {};
    for (const [key, entry] of Object.entries(value)) {
      // A split spec's operation too large to expand is read here without intake's whole-spec checks.
      if (PROTOTYPE_NAMES.has(key)) throw new ForageError("invalid_spec", `the schema uses the key "${key}"`);
      copy[key] = this.lift(entry, depth + 1);
    }
    return copy;
  }

  #liftRef(ref: string, depth: number): unknown {
    const target = resolveRef(ref, this.#root);
    if (!SCHEMA_REF.test(ref)) {
      if (this.#inlining.has(ref)) throw new ForageError("unsupported", `the reference ${ref} refers back to itself`);
      this.#inlining.add(ref);
      const inlined = this.lift(target, depth + 1);
      this.#inlining.delete(ref);
      return inlined;
    }
    const name = (refTokens(ref) as string[])[2] as string;
    if (!this.definitions.has(name)) {
      this.definitions.set(name, {});
      // A definition is a root of its own: what it nests starts from zero.
      this.definitions.set(name, this.lift(target, 0) as JsonValue);
    }
    return { $ref: `#/$defs/${escapeToken(name)}` };
  }
}

/** `schema` with the `$defs` entries it reaches, transitively, and no others: each side renders only its own types. */
function withReachableDefs(schema: JsonObject, $defs: Record<string, JsonValue>): JsonObject {
  const reached: Record<string, JsonValue> = {};
  const pending: unknown[] = [schema];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value !== "object" || value === null) continue;
    const ref = Array.isArray(value) ? undefined : (value as Record<string, unknown>).$ref;
    const tokens = typeof ref === "string" ? refTokens(ref) : undefined;
    const name = tokens?.length === 2 && tokens[0] === "$defs" ? tokens[1] : undefined;
    if (name !== undefined && Object.hasOwn($defs, name) && !Object.hasOwn(reached, name)) {
      reached[name] = $defs[name] as JsonValue;
      pending.push(reached[name]);
    }
    pending.push(...Object.values(value));
  }
  return Object.keys(reached).length === 0 ? schema : { ...schema, $defs: reached };
}

/** The 2xx responses: the only ones intake reads, so an error response's schemas are never carried. */
function successResponses(responses: unknown): Record<string, unknown> | undefined {
  if (!isRecord(responses)) return undefined;
  return Object.fromEntries(Object.entries(responses).filter(([status]) => isSuccessStatus(status)));
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
