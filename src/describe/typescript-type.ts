import { refTokens } from "../json-schema/json-pointer.js";
import type { JsonSchema, JsonValue } from "../json-value.js";
import { jsdocBlock, schemaDocLines } from "./jsdoc.js";
import { isFalseSchema } from "./projection-normal-form.js";

type SchemaObject = { readonly [keyword: string]: JsonValue };

/** How `$ref`s are named while rendering one schema. */
export interface TypeNaming {
  /** The alias of the root schema, for `"#"` refs. */
  readonly root: string;
  /** The alias for a `$defs`/`definitions` entry. */
  definition(name: string): string;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A property key as TypeScript accepts it: bare when an identifier, quoted otherwise. */
export function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** Renders a JSON Schema as a TypeScript type expression; `indent` is the current line's indentation. */
export function renderType(schema: JsonSchema | JsonValue | undefined, naming: TypeNaming, indent = ""): string {
  if (schema === undefined || schema === true) return "unknown";
  if (isFalseSchema(schema)) return "never";
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return "unknown";
  return renderObjectSchema(schema as SchemaObject, naming, indent);
}

function renderObjectSchema(schema: SchemaObject, naming: TypeNaming, indent: string): string {
  if (typeof schema.$ref === "string") return renderRef(schema.$ref, naming);
  if ("const" in schema) return literalType(schema.const ?? null);
  if (Array.isArray(schema.enum)) return union(schema.enum.map(literalType));
  const parts: string[] = [];
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alternatives)) parts.push(union(alternatives.map((inner) => renderType(inner, naming, indent))));
  if (Array.isArray(schema.allOf)) parts.push(...schema.allOf.map((inner) => renderType(inner, naming, indent)));
  const typed = renderTyped(schema, naming, indent);
  if (typed !== undefined) parts.push(typed);
  if (parts.length === 0) return "unknown";
  return parts.length === 1 ? (parts[0] as string) : parts.map(group).join(" & ");
}

/** Renders the `type` keyword (or the keywords that imply one) as a type, or undefined when there is none. */
function renderTyped(schema: SchemaObject, naming: TypeNaming, indent: string): string | undefined {
  const declared = schema.type;
  const types = Array.isArray(declared) ? declared : typeof declared === "string" ? [declared] : impliedTypes(schema);
  if (types.length === 0) return undefined;
  return union(types.map((type) => renderOneType(String(type), schema, naming, indent)));
}

function impliedTypes(schema: SchemaObject): string[] {
  if ("properties" in schema || "additionalProperties" in schema) return ["object"];
  if ("items" in schema || "prefixItems" in schema) return ["array"];
  return [];
}

function renderOneType(type: string, schema: SchemaObject, naming: TypeNaming, indent: string): string {
  switch (type) {
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array":
      return renderArray(schema, naming, indent);
    case "object":
      return renderObject(schema, naming, indent);
    default:
      return "unknown";
  }
}

function renderArray(schema: SchemaObject, naming: TypeNaming, indent: string): string {
  const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : undefined;
  if (prefix === undefined) return `${group(renderType(schema.items, naming, indent))}[]`;
  // The first minItems elements must be present; the rest are optional, and `?` binds tighter than `|`.
  const required = typeof schema.minItems === "number" ? schema.minItems : 0;
  const elements = prefix.map((inner, index) => {
    const type = renderType(inner, naming, indent);
    return index < required ? type : `${group(type)}?`;
  });
  if (!isFalseSchema(schema.items)) elements.push(`...${group(renderType(schema.items, naming, indent))}[]`);
  return `[${elements.join(", ")}]`;
}

function renderObject(schema: SchemaObject, naming: TypeNaming, indent: string): string {
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const inner = `${indent}  `;
  const members = Object.entries(properties).map(([name, property]) => {
    const docs = isPlainObject(property) ? jsdocBlock(schemaDocLines(property), inner) : "";
    const optional = required.has(name) ? "" : "?";
    return `${docs}${inner}${propertyKey(name)}${optional}: ${renderType(property, naming, inner)};\n`;
  });
  // A closed object has no index signature, so tsc refuses an extra key as its validator does
  // (docs/describe.md, "Closed and open objects"); any other object admits extra keys.
  const extra = schema.additionalProperties;
  if (!isFalseSchema(extra)) {
    // An index signature must admit every declared property's type, so it widens to unknown beside them.
    const valueType = members.length > 0 ? "unknown" : renderType(extra, naming, inner);
    members.push(`${inner}[key: string]: ${valueType};\n`);
  } else if (members.length === 0) {
    // `{}` would take any object literal; a closed object with no properties takes only `{}`.
    members.push(`${inner}[key: string]: never;\n`);
  }
  return members.length === 0 ? "{}" : `{\n${members.join("")}${indent}}`;
}

function renderRef(ref: string, naming: TypeNaming): string {
  if (ref === "#") return naming.root;
  const tokens = refTokens(ref);
  if (tokens?.length !== 2 || (tokens[0] !== "$defs" && tokens[0] !== "definitions")) return "unknown";
  return naming.definition(tokens[1] as string);
}

/** A JSON value is also a valid TypeScript literal type. */
function literalType(value: JsonValue): string {
  return JSON.stringify(value);
}

function union(members: string[]): string {
  // Most types are one member; skip building a Set for them (creation renders every schema in the catalog).
  if (members.length === 1) return members[0] as string;
  const unique = [...new Set(members)];
  return unique.length === 0 ? "never" : unique.join(" | ");
}

/** Parenthesises a union or intersection so it can sit inside `[]`, `&`, `...` or before an optional element's `?`. */
function group(type: string): string {
  return hasTopLevelOperator(type) ? `(${type})` : type;
}

/** True when `|` or `&` joins the type at its outermost level (outside brackets, string literals and comments). */
function hasTopLevelOperator(type: string): boolean {
  let depth = 0;
  for (let index = 0; index < type.length; index += 1) {
    const char = type[index];
    if (char === '"') index = closingQuote(type, index);
    // JSDoc text may hold quotes and brackets of its own; "*/" inside it is always escaped.
    else if (char === "/" && type[index + 1] === "*") index = type.indexOf("*/", index + 2) + 1 || type.length;
    else if (char === "{" || char === "[" || char === "(") depth += 1;
    else if (char === "}" || char === "]" || char === ")") depth -= 1;
    else if ((char === "|" || char === "&") && depth === 0) return true;
  }
  return false;
}

function closingQuote(text: string, open: number): number {
  let index = open + 1;
  while (index < text.length && text[index] !== '"') index += text[index] === "\\" ? 2 : 1;
  return index;
}

function isPlainObject(value: unknown): value is SchemaObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
