import type { JsonValue } from "./json-schema.js";

/** JSON Schema keywords that TypeScript cannot express, shown as JSDoc tags. */
const BOUND_TAGS = [
  "minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
  "multipleOf", "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties",
  "pattern", "format", "default", "deprecated",
] as const;

/** The JSDoc lines (without comment markers) for a schema's description and bounds. */
export function schemaDocLines(schema: { readonly [keyword: string]: JsonValue }): string[] {
  const lines: string[] = [];
  if (typeof schema.description === "string") lines.push(...schema.description.split(/\r?\n/));
  for (const tag of BOUND_TAGS) {
    const value = schema[tag];
    if (value === undefined || value === false) continue;
    lines.push(value === true ? `@${tag}` : `@${tag} ${JSON.stringify(value)}`);
  }
  return lines;
}

/** Renders JSDoc lines as a comment block at `indent`, or nothing when there are none. */
export function jsdocBlock(lines: readonly string[], indent: string): string {
  if (lines.length === 0) return "";
  // "*/" inside text would end the comment early and corrupt the declaration.
  const safe = lines.map((line) => line.replace(/\*\//g, "*\\/"));
  if (safe.length === 1) return `${indent}/** ${safe[0]} */\n`;
  return `${indent}/**\n${safe.map((line) => `${indent} *${line ? ` ${line}` : ""}`).join("\n")}\n${indent} */\n`;
}
