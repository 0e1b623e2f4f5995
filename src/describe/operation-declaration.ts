import type { JsonSchema, JsonValue } from "../json-value.js";
import { directReferenceCycle } from "./direct-recursion.js";
import { jsdocBlock, textLines } from "./jsdoc.js";
import { renderType, type TypeNaming } from "./typescript-type.js";

/** What `env` declares of one operation: its member's aliases and JSDoc lines (the type aliases are rendered apart). */
export interface OperationDeclaration {
  readonly path: string;
  readonly inputAlias: string;
  readonly outputAlias: string;
  /** JSDoc lines for the operation's member on `env`. */
  readonly docLines: readonly string[];
}

/** The input and output aliases of a path: every segment joined with `$`, so `a_b.c` and `a.b.c` never collide. */
function aliasesOf(path: string): { readonly inputAlias: string; readonly outputAlias: string } {
  const stem = path.replace(/\./g, "$");
  return { inputAlias: `${stem}_Input`, outputAlias: `${stem}_Output` };
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
 * Thrown when a schema has no TypeScript declaration; the message says why, to
 * follow the operation's name (catalog creation reports it as `invalid_catalog`).
 */
export class UndeclarableSchemaError extends Error {
  override readonly name = "UndeclarableSchemaError";
}

/** The `env` member facts of one operation: cheap, nothing rendered. */
export function declareOperation(source: DeclarationSource): OperationDeclaration {
  return { path: source.path, ...aliasesOf(source.path), docLines: memberDocLines(source) };
}

/**
 * The `export type` declarations of an operation's input, its output and their `$defs`.
 * Throws UndeclarableSchemaError when a schema refers to itself with no object
 * or array between (see directReferenceCycle): its alias would be circular.
 */
export function declareAliases(source: DeclarationSource): string {
  const { inputAlias, outputAlias } = aliasesOf(source.path);
  const output =
    source.outputSchema === undefined
      ? undeclaredOutput(source.path, outputAlias)
      : declareSchema(outputAlias, source.outputSchema, source.path, "output");
  return declareSchema(inputAlias, source.inputSchema, source.path, "input") + output;
}

/**
 * The length of declareAliases(source), rendering each schema object once however many
 * operations share it (see SchemaDeclarationSize); throws as declareAliases does.
 * `inputJson` and `outputJson` are the schemas' JSON texts.
 */
export function declaredAliasesLength(
  source: DeclarationSource,
  inputJson: string,
  outputJson: string | undefined,
): number {
  const { inputAlias, outputAlias } = aliasesOf(source.path);
  const output =
    source.outputSchema === undefined || outputJson === undefined
      ? undeclaredOutput(source.path, outputAlias).length
      : schemaDeclarationLength(source.outputSchema, outputJson, outputAlias, source.path, "output");
  return schemaDeclarationLength(source.inputSchema, inputJson, inputAlias, source.path, "input") + output;
}

function undeclaredOutput(path: string, alias: string): string {
  return `/** Output of ${path}: not declared by the host. */\nexport type ${alias} = unknown;\n`;
}

function memberDocLines(source: DeclarationSource): string[] {
  const lines = source.description ? textLines(source.description) : [];
  for (const note of source.capabilities) lines.push(`@capability ${note}`);
  if (source.instructions) lines.push(...textLines(`@instructions ${source.instructions}`));
  return lines;
}

/**
 * The declarations of a schema depend on its alias and path only linearly: rendered for
 * alias `A` and path `P`, they are `base + aliasUses × |A| + |P|` characters long (a
 * definition's alias is `A` and a suffix made from its name alone, and alias and path
 * characters never change how a type is grouped or escaped). So one rendering measures
 * every operation that shares the schema object.
 */
interface SchemaDeclarationSize {
  readonly base: number;
  readonly aliasUses: number;
}

/**
 * Stands for the alias while measuring. The rendering holds no other private-use
 * character unless the schema's text does (every character of it is the renderer's
 * ASCII, the path's, or the schema's own), so counting it counts the alias uses.
 */
const ALIAS_MARK = "\uE000";

const sizes = {
  input: new WeakMap<object, SchemaDeclarationSize>(),
  output: new WeakMap<object, SchemaDeclarationSize>(),
};

function schemaDeclarationLength(
  schema: JsonSchema,
  json: string,
  alias: string,
  path: string,
  side: "input" | "output",
): number {
  let size = typeof schema === "object" ? sizes[side].get(schema) : undefined;
  if (size === undefined) {
    size = measureSchemaDeclaration(schema, json, side);
    if (typeof schema === "object") sizes[side].set(schema, size);
  }
  return size.base + size.aliasUses * alias.length + path.length;
}

function measureSchemaDeclaration(schema: JsonSchema, json: string, side: "input" | "output"): SchemaDeclarationSize {
  if (json.includes(ALIAS_MARK)) {
    // The mark would be ambiguous: two renderings, whose lengths differ by one per alias use.
    const base = declareSchema("", schema, "", side).length;
    return { base, aliasUses: declareSchema("A", schema, "", side).length - base };
  }
  const text = declareSchema(ALIAS_MARK, schema, "", side);
  let aliasUses = 0;
  for (let at = text.indexOf(ALIAS_MARK); at !== -1; at = text.indexOf(ALIAS_MARK, at + 1)) aliasUses += 1;
  return { base: text.length - aliasUses, aliasUses };
}

/** Declares `alias` for a schema, plus one alias per `$defs` entry (joined with `$$`, which no path alias contains). */
function declareSchema(alias: string, schema: JsonSchema, path: string, side: "input" | "output"): string {
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
  const summary = `${side === "input" ? "Input" : "Output"} of ${path}.`;
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
