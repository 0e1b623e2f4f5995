import { MAX_YAML_SOURCE_BYTES } from "./source-bounds.js";
import { parseSourceDocument } from "./source-document.js";
import { SourceError } from "./source-error.js";
import { type DetectedSource, unrecognizedSource } from "./source-kinds.js";

/** A JSON or YAML file's kind, by its top-level keys: `openapi`/`swagger`, then `tools`, then `operations`. */
export function detectDataFile(path: string, text: string): DetectedSource {
  const parsed = parseData(path, text);
  const keys: Record<string, unknown> = isRecord(parsed) ? parsed : {};
  if ("openapi" in keys || "swagger" in keys) return { kind: "openapi", path, text };
  if (Array.isArray(keys.tools)) return { kind: "tools-list-file", path, text, result: keys };
  if (Array.isArray(keys.operations)) return { kind: "catalog-file", path, text, document: keys };
  throw unrecognizedSource(path, "its top-level keys are none that Forage reads", false);
}

function parseData(path: string, text: string): unknown {
  const bytes = Buffer.byteLength(text);
  // YAML costs far more per byte than JSON to parse, so it has a bound of its own, checked first.
  if (!/^\uFEFF?\s*[{[]/.test(text) && bytes > MAX_YAML_SOURCE_BYTES)
    throw new SourceError(path, `source ${path}: ${bytes} bytes of YAML; the limit is ${MAX_YAML_SOURCE_BYTES}`);
  const parsed = parseSourceDocument(text);
  if (parsed.ok) return parsed.document;
  const line = parsed.line === undefined ? "" : `:${parsed.line}`;
  throw new SourceError(path, `source ${path}${line}: ${parsed.problem}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
