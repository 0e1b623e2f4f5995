import type { JsonValue } from "../json-value.js";

/** JSON Schema keywords that TypeScript cannot express, shown as JSDoc tags. */
const BOUND_TAGS = [
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
  "pattern",
  "format",
  "default",
  "deprecated",
] as const;
/** Tags whose value is a flag: `true` shows the bare tag, `false` nothing. Any other tag shows its value, booleans included. */
const FLAG_TAGS: ReadonlySet<string> = new Set(["uniqueItems", "deprecated"]);
/** Each tag's place in BOUND_TAGS, which fixes the order tags are shown in. */
const TAG_ORDER: ReadonlyMap<string, number> = new Map(BOUND_TAGS.map((tag, index) => [tag, index]));

/** The JSDoc lines (without comment markers) for a schema's description and bounds. */
export function schemaDocLines(schema: { readonly [keyword: string]: JsonValue }): string[] {
  const lines = typeof schema.description === "string" ? textLines(schema.description) : [];
  // Walk the schema's few keywords instead of looking up every tag: catalog creation renders every property of every schema.
  const tags: string[] = [];
  for (const keyword of Object.keys(schema)) if (TAG_ORDER.has(keyword)) tags.push(keyword);
  if (tags.length > 1) tags.sort((a, b) => (TAG_ORDER.get(a) as number) - (TAG_ORDER.get(b) as number));
  for (const tag of tags) {
    const value = schema[tag];
    if (value === undefined) continue;
    // `default: false` is a value an agent needs; `uniqueItems: false` says nothing.
    if (FLAG_TAGS.has(tag)) {
      if (value === true) lines.push(`@${tag}`);
    } else lines.push(`@${tag} ${JSON.stringify(value)}`);
  }
  return lines;
}

/** A text's lines; most descriptions are one line, so the split is skipped for them. */
export function textLines(text: string): string[] {
  return text.includes("\n") ? text.split(/\r?\n/) : [text];
}

/** The length of jsdocBlock(lines, indent) for an indent of `indent` characters, without rendering it. */
export function jsdocBlockLength(lines: readonly string[], indent: number): number {
  if (lines.length === 0) return 0;
  // One line: `/** line */`; more: `/**`, ` * line` (or ` *`) each, ` */`, each on its own line at the indent.
  if (lines.length === 1) return indent + 8 + (lines[0] as string).length + escapesIn(lines[0] as string);
  let text = 0;
  for (const line of lines) text += line ? 1 + line.length + escapesIn(line) : 0;
  return indent + 4 + lines.length * (indent + 3) + text + indent + 4;
}

/** How many "*\/" escapes jsdocBlock puts in a line: one per "*\/" in it. */
function escapesIn(line: string): number {
  let count = 0;
  for (let at = line.indexOf("*/"); at !== -1; at = line.indexOf("*/", at + 2)) count += 1;
  return count;
}

/** Renders JSDoc lines as a comment block at `indent`, or nothing when there are none. */
export function jsdocBlock(lines: readonly string[], indent: string): string {
  if (lines.length === 0) return "";
  // "*/" inside text would end the comment early and corrupt the declaration.
  const safe = lines.map((line) => (line.includes("*/") ? line.replace(/\*\//g, "*\\/") : line));
  if (safe.length === 1) return `${indent}/** ${safe[0]} */\n`;
  return `${indent}/**\n${safe.map((line) => `${indent} *${line ? ` ${line}` : ""}`).join("\n")}\n${indent} */\n`;
}
