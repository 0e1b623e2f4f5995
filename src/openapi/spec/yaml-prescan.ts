import { ForageError } from "../../forage-error.js";
import { yaml } from "../../lazy-yaml.js";
import { MAX_SPEC_DEPTH, MAX_SPEC_NODES, MAX_YAML_TOKENS } from "../limits.js";

/**
 * Streams YAML's own lexer tokens and refuses, before any parsing or
 * composition, what would make the parser expensive or unsafe:
 *
 * - aliases (a billion-laughs document is refused at its first `*alias`),
 *   tags (they select non-JSON types such as !!binary) and directives;
 * - flow or compact nesting deeper than the depth limit (the composer recurses);
 * - more values than the node limit. Every `:` value indicator, `-` item
 *   indicator and comma inside a flow sequence introduces at least one value,
 *   so their count is a lower bound on the node count: refusing above the
 *   limit never refuses a document that is within it.
 *
 * - more lexical tokens than the parser's work bound (see MAX_YAML_TOKENS).
 *
 * It stops at the first breach, so a hostile 2 MiB document costs one partial lex.
 */
export function prescanYaml(text: string): void {
  const scan = new YamlScan();
  let scalarSource = false;
  let tokens = 0;
  const { CST, Lexer } = yaml();
  for (const token of new Lexer().lex(text)) {
    tokens += 1;
    if (tokens > MAX_YAML_TOKENS) {
      throw new ForageError(
        "too_large",
        `The YAML spec has more than ${MAX_YAML_TOKENS} lexical tokens (values, indentation, comments, blank lines); convert it to JSON or drop comments and blank lines`,
        { limit: MAX_YAML_TOKENS },
      );
    }
    // The token after a SCALAR marker is the scalar's own source text, whatever it looks like.
    if (scalarSource) {
      scalarSource = false;
      continue;
    }
    const type = CST.tokenType(token);
    if (type === "scalar") scalarSource = true;
    else scan.accept(type, token);
  }
}

class YamlScan {
  #values = 0;
  readonly #flow: Array<"seq" | "map"> = [];
  // Consecutive block indicators on one line ("- - - x") nest without indentation.
  #lineIndicators = 0;

  accept(type: string | null, token: string): void {
    switch (type) {
      case "alias":
        throw refused("aliases", token);
      case "tag":
        throw refused("tags", token);
      case "directive-line":
        throw refused("directives", token);
      case "newline":
        this.#lineIndicators = 0;
        return;
      case "flow-seq-start":
      case "flow-map-start":
        this.#open(type === "flow-seq-start" ? "seq" : "map");
        return;
      case "flow-seq-end":
      case "flow-map-end":
        this.#flow.pop();
        return;
      case "comma":
        if (this.#flow.at(-1) === "seq") this.#count();
        return;
      case "map-value-ind":
        this.#count();
        return;
      case "seq-item-ind":
      case "explicit-key-ind":
        this.#indicator(type === "seq-item-ind");
        return;
      default:
        return;
    }
  }

  #open(kind: "seq" | "map"): void {
    this.#flow.push(kind);
    this.#assertDepth(this.#flow.length + this.#lineIndicators);
  }

  #indicator(isItem: boolean): void {
    if (isItem) this.#count();
    this.#lineIndicators += 1;
    this.#assertDepth(this.#flow.length + this.#lineIndicators);
  }

  #count(): void {
    this.#values += 1;
    if (this.#values > MAX_SPEC_NODES) {
      throw new ForageError("too_large", `The spec has more than ${MAX_SPEC_NODES} JSON values`, {
        limit: MAX_SPEC_NODES,
      });
    }
  }

  #assertDepth(depth: number): void {
    if (depth > MAX_SPEC_DEPTH) {
      throw new ForageError("too_large", `The spec nests deeper than ${MAX_SPEC_DEPTH} levels`, {
        limit: MAX_SPEC_DEPTH,
      });
    }
  }
}

function refused(feature: string, token: string): ForageError {
  const shown = token.length > 40 ? `${token.slice(0, 40)}…` : token;
  return new ForageError(
    "unsupported",
    `YAML ${feature} are refused (found ${JSON.stringify(shown)}); write the spec as plain JSON-compatible YAML`,
    {
      feature: `yaml-${feature}`,
    },
  );
}
