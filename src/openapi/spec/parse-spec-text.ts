import type { Document } from "yaml";
import { ForageError, type ForageErrorDetails, isForageError } from "../../forage-error.js";
import { yaml } from "../../lazy-yaml.js";
import { MAX_SPEC_BYTES, MAX_SPEC_DEPTH } from "../limits.js";
import { prescanYaml } from "./yaml-prescan.js";

/** A parsed spec before any OpenAPI reading: plain JSON values. */
export interface ParsedSpecText {
  readonly document: unknown;
  readonly format: "json" | "yaml";
}

/**
 * Parses spec text as JSON or YAML after the cheap checks: size in bytes, then
 * JSON nesting by a character scan, or YAML aliases, tags, nesting and value
 * count by a lexer pre-scan. Nothing is fetched, read or executed.
 */
export function parseSpecText(text: string): ParsedSpecText {
  if (typeof text !== "string")
    throw new ForageError("invalid_argument", "normalizeOpenApi takes the spec text as a string");
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > MAX_SPEC_BYTES) {
    throw new ForageError("too_large", `The spec is ${bytes} bytes; the limit is ${MAX_SPEC_BYTES} (2 MiB)`, {
      limit: MAX_SPEC_BYTES,
      bytes,
    });
  }
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  if (/^\s*[{[]/.test(body)) {
    const json = parseJson(body);
    if (json.ok) return { document: json.value, format: "json" };
    // JSON-looking text may still be YAML flow style; if YAML fails too, the JSON error is the useful one.
    try {
      return { document: parseYaml(body), format: "yaml" };
    } catch (error) {
      if (error instanceof ForageError && error.code !== "invalid_spec") throw error;
      // Node's JSON.parse does not always say where; YAML's reading of the same text then does.
      const line = json.position === undefined ? yamlLine(error) : lineAt(body, json.position);
      throw new ForageError(
        "invalid_spec",
        `The spec is not valid JSON${atLine(line)}: ${json.message}`,
        lineDetail(line),
      );
    }
  }
  return { document: parseYaml(body), format: "yaml" };
}

type JsonResult = { ok: true; value: unknown } | { ok: false; message: string; position: number | undefined };

function parseJson(text: string): JsonResult {
  assertJsonDepth(text);
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /at position (\d+)/.exec(message)?.[1];
    return { ok: false, message, position: position === undefined ? undefined : Number(position) };
  }
}

/** The 1-based line of a character offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let index = text.indexOf("\n"); index !== -1 && index < offset; index = text.indexOf("\n", index + 1)) line += 1;
  return line;
}

function yamlLine(error: unknown): number | undefined {
  return isForageError(error, "invalid_spec") ? error.details.line : undefined;
}

function atLine(line: number | undefined): string {
  return line === undefined ? "" : ` at line ${line}`;
}

function lineDetail(line: number | undefined): ForageErrorDetails["invalid_spec"] {
  return line === undefined ? {} : { line };
}

/**
 * Refuses JSON text nested deeper than the limit (intake's, unless the splitter
 * gives its own) by scanning brackets outside strings, so JSON.parse never
 * builds a pathologically deep value.
 */
export function assertJsonDepth(text: string, limit = MAX_SPEC_DEPTH): void {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c)
        index += 1; // backslash: skip the escaped character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x7b || code === 0x5b) {
      depth += 1;
      if (depth > limit) {
        throw new ForageError("too_large", `The spec nests deeper than ${limit} levels`, { limit });
      }
    } else if (code === 0x7d || code === 0x5d) {
      depth -= 1;
    }
  }
}

function parseYaml(text: string): unknown {
  prescanYaml(text);
  // uniqueKeys is checked below in one linear pass: yaml's own check is quadratic per map.
  const document = yaml().parseDocument(text, {
    version: "1.2",
    schema: "core",
    merge: false,
    uniqueKeys: false,
    strict: true,
    prettyErrors: false,
  });
  const problem = document.errors[0] ?? document.warnings[0];
  if (problem !== undefined) {
    const line = lineAt(text, problem.pos[0]);
    throw new ForageError(
      "invalid_spec",
      `The spec is not valid YAML${atLine(line)}: ${firstLine(problem.message)}`,
      lineDetail(line),
    );
  }
  assertPlainYaml(document);
  return document.toJS({ maxAliasCount: 0 });
}

/** Refuses aliases (authoritatively, after the pre-scan), complex keys and duplicate keys. */
function assertPlainYaml(document: Document.Parsed): void {
  let failure: ForageError | undefined;
  const { visit } = yaml();
  visit(document, {
    Alias() {
      failure = new ForageError(
        "unsupported",
        "YAML aliases are refused; write the spec as plain JSON-compatible YAML",
        { feature: "yaml-aliases" },
      );
      return visit.BREAK;
    },
    Map(_key, map) {
      failure = duplicateOrComplexKey(map);
      return failure === undefined ? undefined : visit.BREAK;
    },
  });
  if (failure !== undefined) throw failure;
}

function duplicateOrComplexKey(map: unknown): ForageError | undefined {
  const { isAlias, isMap, isScalar } = yaml();
  if (!isMap(map)) return undefined;
  const seen = new Set<string>();
  for (const pair of map.items) {
    const key: unknown = pair.key;
    if (isAlias(key) || (key !== null && !isScalar(key))) {
      return new ForageError("invalid_spec", "The spec uses a YAML collection as a mapping key; keys must be scalars");
    }
    const name = key === null ? "" : String(key.value);
    if (seen.has(name))
      return new ForageError("invalid_spec", `The spec repeats the mapping key ${JSON.stringify(name)}`);
    seen.add(name);
  }
  return undefined;
}

function firstLine(message: string): string {
  return message.split("\n")[0] ?? message;
}
