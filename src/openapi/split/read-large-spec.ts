import { ForageError } from "../../forage-error.js";
import { yaml } from "../../lazy-yaml.js";
import { assertJsonDepth } from "../spec/parse-spec-text.js";
import { countValuesUpTo } from "./count-values.js";
import { MAX_SPLIT_BYTES, MAX_SPLIT_DEPTH, MAX_SPLIT_NODES, MAX_SPLIT_YAML_BYTES } from "./split-limits.js";
import type { WorkBudget } from "./work-budget.js";

/**
 * Parses a spec too large for intake's own reader, under the splitter's bounds: the bytes are
 * checked before anything is parsed, JSON's nesting by a character scan before JSON.parse
 * builds a value, and the values counted (each one a step of work) before any part is built.
 */
export function readLargeSpec(text: string, budget: WorkBudget): unknown {
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > MAX_SPLIT_BYTES) throw tooManyBytes(bytes, MAX_SPLIT_BYTES, "");
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const document = /^\s*[{[]/.test(body) ? parseJson(body) : parseYaml(body, bytes);
  countValues(document, budget);
  return document;
}

function tooManyBytes(bytes: number, limit: number, what: string): ForageError {
  return new ForageError(
    "too_large",
    `The spec is ${bytes} bytes; the splitter reads at most ${limit}${what} (${limit / 1024 / 1024} MiB)`,
    { limit, bytes },
  );
}

function parseJson(text: string): unknown {
  assertJsonDepth(text, MAX_SPLIT_DEPTH);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ForageError("invalid_spec", `The spec is not valid JSON: ${(error as Error).message}`);
  }
}

function parseYaml(text: string, bytes: number): unknown {
  if (bytes > MAX_SPLIT_YAML_BYTES) throw tooManyBytes(bytes, MAX_SPLIT_YAML_BYTES, " as YAML; convert it to JSON");
  const { isAlias, parseDocument, visit } = yaml();
  const document = parseDocument(text, { version: "1.2", schema: "core", merge: false, prettyErrors: false });
  const problem = document.errors[0] ?? document.warnings[0];
  if (problem !== undefined)
    throw new ForageError("invalid_spec", `The spec is not valid YAML: ${problem.message.split("\n")[0]}`);
  visit(document, {
    Alias(_key, node) {
      if (isAlias(node))
        throw new ForageError("unsupported", "YAML aliases are refused; write the spec as plain JSON-compatible YAML", {
          feature: "yaml-aliases",
        });
    },
  });
  return document.toJS({ maxAliasCount: 0 });
}

/** Too deep or too many values is refused before any part is built. */
function countValues(document: unknown, budget: WorkBudget): void {
  const values = countValuesUpTo(document, MAX_SPLIT_NODES, MAX_SPLIT_DEPTH);
  budget.charge(values);
  if (values > MAX_SPLIT_NODES)
    throw new ForageError("too_large", `The spec has more than ${MAX_SPLIT_NODES} JSON values`, {
      limit: MAX_SPLIT_NODES,
    });
}
