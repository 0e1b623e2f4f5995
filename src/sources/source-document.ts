import { handOverParsed } from "../json-schema/json-document.js";
import { yaml } from "../lazy-yaml.js";
import { lineAt } from "../openapi/spec/parse-spec-text.js";

/** A source file's text read as data: JSON, or YAML (which also reads JSON-like flow style). */
export type SourceDocument =
  | { readonly ok: true; readonly document: unknown }
  | { readonly ok: false; readonly problem: string; readonly line: number | undefined };

/**
 * Parses a source file once so its kind is decided by its keys. JSON-looking text is read by
 * JSON.parse (fast at any size); anything else, or JSON that fails, by YAML without aliases.
 * A file that reads as neither is a problem with its line, never an exception.
 */
export function parseSourceDocument(text: string): SourceDocument {
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  if (!/^\s*[{[]/.test(body)) return parseYaml(body);
  try {
    const document: unknown = JSON.parse(body);
    // Nothing here changes the tree, and the source kinds that keep it only read it.
    handOverParsed(document);
    return { ok: true, document };
  } catch (error) {
    const asYaml = parseYaml(body);
    if (asYaml.ok) return asYaml;
    const message = error instanceof Error ? error.message : String(error);
    const position = /at position (\d+)/.exec(message)?.[1];
    const line = position === undefined ? asYaml.line : lineAt(body, Number(position));
    return { ok: false, problem: `not valid JSON${atLine(line)}: ${message}`, line };
  }
}

function parseYaml(text: string): SourceDocument {
  try {
    const document = yaml().parseDocument(text, { version: "1.2", merge: false, prettyErrors: false });
    const error = document.errors[0];
    if (error !== undefined) {
      const line = lineAt(text, error.pos[0]);
      return { ok: false, problem: `not valid YAML or JSON${atLine(line)}: ${firstLine(error.message)}`, line };
    }
    return { ok: true, document: document.toJS({ maxAliasCount: 0 }) as unknown };
  } catch (error) {
    // toJS refuses aliases; a pathologically deep document overflows the parser's stack.
    const message = error instanceof Error ? firstLine(error.message) : String(error);
    return { ok: false, problem: `not readable as YAML: ${message}`, line: undefined };
  }
}

function atLine(line: number | undefined): string {
  return line === undefined ? "" : ` at line ${line}`;
}

function firstLine(message: string): string {
  return message.split("\n")[0] ?? message;
}
