import { yaml } from "../lazy-yaml.js";

/**
 * The first of `names` that a YAML text has as a top-level block-map key, found by YAML's own
 * lexer without composing the document: a spec names `openapi` in its first lines, so a YAML
 * spec is known at once and parsed only by intake. Undefined when none is (the text is then
 * parsed whole to tell the other kinds apart).
 */
export function yamlTopLevelKey(text: string, names: readonly string[]): string | undefined {
  let lineStart = true;
  let candidate: string | undefined;
  let afterScalarMark = false;
  const { CST, Lexer } = yaml();
  for (const token of new Lexer().lex(text)) {
    const type = CST.tokenType(token);
    if (afterScalarMark) {
      afterScalarMark = false;
      candidate = token;
      continue;
    }
    if (type === "map-value-ind" && candidate !== undefined && names.includes(candidate)) return candidate;
    candidate = undefined;
    if (lineStart && type === "scalar") afterScalarMark = true;
    else if (lineStart && (type === "double-quoted-scalar" || type === "single-quoted-scalar"))
      candidate = token.slice(1, -1);
    lineStart = type === "newline" || type === "doc-mode" || type === "doc-start";
  }
  return undefined;
}
