import { ForageError } from "../forage-error.js";
import { parseSpecText } from "../openapi/spec/parse-spec-text.js";
import { isToolsListDocument } from "./tools-list-intake.js";

/**
 * A saved tools/list result (JSON or YAML) parsed under the same byte, depth
 * and YAML bounds as a spec; undefined when the text parses but is not one, or
 * does not parse at all (so another reader can say what it expected).
 * Exceeding a bound is always an error: such a file is refused by every reader.
 */
export function parseToolsListText(text: string): unknown {
  try {
    const { document } = parseSpecText(text);
    return isToolsListDocument(document) ? document : undefined;
  } catch (error) {
    if (error instanceof ForageError && error.code === "invalid_spec") return undefined;
    throw error;
  }
}
