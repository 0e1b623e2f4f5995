import type { JsonSchema, JsonValue } from "../json-value.js";
import { directReferenceCycle } from "./direct-recursion.js";
import { jsdocBlock } from "./jsdoc.js";
import { renderType, type TypeNaming } from "./typescript-type.js";

/** What describe needs to declare one operation; built once per operation at catalog creation. */
export interface OperationDeclaration {
  readonly path: string;
  readonly inputAlias: string;
  readonly outputAlias: string;
  /** `export type` declarations of the input, the output and their `$defs`. */
  readonly aliases: string;
  /** JSDoc lines for the operation's member on `env`. */
  readonly docLines: readonly string[];
}

/** The alias stem of a path: every segment joined with `$`, so `a_b.c` and `a.b.c` never collide. */
function aliasStem(path: string): string {
  return path.split(".").join("$");
}

/** The facts an operation declaration is built from. */
export interface DeclarationSource {
  readonly path: string;
  readonly description: string;
  readonly capabilities: readonly string[];
  readonly instructions: string | undefined;
  readonly inputSchema: JsonSchema;
  readonly outputSchema: JsonSchema | undefined;
}

/**
 * Thrown by declareOperation when a schema has no TypeScript declaration; the
 * message says why, to follow the operation's name (catalog creation reports
 * it as `invalid_catalog`).
 */
export class UndeclarableSchemaError extends Error {
  override readonly name = "UndeclarableSchemaError";
}

/**
 * Builds the declaration pieces of one operation.
 * Throws UndeclarableSchemaError when a schema refers to itself with no object
 * or array between (see directReferenceCycle): its alias would be circular.
 */
export function declareOperation(source: DeclarationSource): OperationDeclaration {
  const stem = aliasStem(source.path);
  const inputAlias = `${stem}_Input`;
  const outputAlias = `${stem}_Output`;
  const aliases = [
    declareSchema(inputAlias, source.inputSchema, `Input of ${source.path}.`, "input"),
    source.outputSchema === undefined
      ? `/** Output of ${source.path}: not declared by the host. */\nexport type ${outputAlias} = unknown;\n`
      : declareSchema(outputAlias, source.outputSchema, `Output of ${source.path}.`, "output"),
  ].join("");
  return { path: source.path, inputAlias, outputAlias, aliases, docLines: memberDocLines(source) };
}

function memberDocLines(source: DeclarationSource): string[] {
  const lines = source.description ? source.description.split(/\r?\n/) : [];
  for (const note of source.capabilities) lines.push(`@capability ${note}`);
  if (source.instructions) lines.push(...`@instructions ${source.instructions}`.split(/\r?\n/));
  return lines;
}

/** Declares `alias` for a schema, plus one alias per `$defs` entry (joined with `$$`, which no path alias contains). */
function declareSchema(alias: string, schema: JsonSchema, summary: string, side: "input" | "output"): string {
  const definitions = definitionsOf(schema);
  const cycle = directReferenceCycle(schema, definitions, definitionsContainer(schema));
  if (cycle !== undefined) {
    const where = cycle[0] === "#" ? "the schema" : cycle[0];
    throw new UndeclarableSchemaError(
      `its ${side} schema is infinitely recursive: ${where} refers to itself (${cycle.join(" → ")}) through $ref, anyOf, oneOf ` +
        "or allOf alone, with no object property or array items between, so it has no TypeScript type",
    );
  }
  const names = new Map<string, string>();
  for (const name of Object.keys(definitions)) names.set(name, uniqueDefinitionAlias(alias, name, names));
  const naming: TypeNaming = { root: alias, definition: (name) => names.get(name) ?? "unknown" };
  const docs =
    typeof schema === "object" && typeof schema.description === "string" ? [summary, schema.description] : [summary];
  let text = `${jsdocBlock(docs, "")}export type ${alias} = ${renderType(schema, naming)};\n`;
  for (const [name, definition] of Object.entries(definitions)) {
    text += `export type ${names.get(name)} = ${renderType(definition, naming)};\n`;
  }
  return text;
}

function definitionsOf(schema: JsonSchema): Record<string, JsonValue> {
  if (typeof schema === "boolean") return {};
  const defs = schema.$defs ?? schema.definitions;
  return defs !== null && typeof defs === "object" && !Array.isArray(defs) ? defs : {};
}

/** Where definitionsOf found the definitions, for locations in messages. */
function definitionsContainer(schema: JsonSchema): string {
  return typeof schema === "object" && (schema.$defs ?? undefined) === undefined && schema.definitions !== undefined
    ? "definitions"
    : "$defs";
}

function uniqueDefinitionAlias(alias: string, name: string, taken: Map<string, string>): string {
  const base = `${alias}$$${name.replace(/[^A-Za-z0-9_]/g, "_")}`;
  const used = new Set(taken.values());
  let candidate = base;
  for (let suffix = 2; used.has(candidate); suffix += 1) candidate = `${base}_${suffix}`;
  return candidate;
}
