/** A path template that passed every check, with its `{name}` parameters in order. */
export type PathTemplateCheck =
  | { readonly ok: true; readonly names: readonly string[] }
  | { readonly ok: false; readonly reason: string };

// RFC 3986 pchar without "@" (userinfo syntax), "%" (checked separately) and braces (templates).
const LITERAL = /^[A-Za-z0-9\-._~!$&'()*+,;=:]*$/;
const TEMPLATE_NAME = /^[A-Za-z0-9_.-]+$/;

/**
 * Checks an OpenAPI path template so that, appended to any server URL, it
 * can only name a path on that server: it starts with one "/", and has no
 * origin syntax ("//", "@", "\\"), no dot segments, no query or fragment
 * syntax, no percent-encoded ASCII (%2F, %5C, %2E, %3F, %23 would smuggle
 * separators past this check), and only simple `{name}` templates.
 */
export function checkPathTemplate(path: string): PathTemplateCheck {
  if (!path.startsWith("/") || path.startsWith("//")) return fail(`must start with a single "/"`);
  if (path.includes("\\")) return fail("contains a backslash, which URL parsers may read as a separator");
  if (path.includes("?") || path.includes("#")) return fail("contains query or fragment syntax (? or #)");
  if (path.includes("@")) return fail(`contains "@", which is userinfo syntax in URLs`);
  const names: string[] = [];
  const segments = path.slice(1).split("/");
  for (let index = 0; index < segments.length; index += 1) {
    const segment = segments[index] as string;
    const problem = segmentProblem(segment, index === segments.length - 1, names);
    if (problem !== undefined) return fail(problem);
  }
  return { ok: true, names };
}

function segmentProblem(segment: string, last: boolean, names: string[]): string | undefined {
  if (segment === "") return last ? undefined : "has an empty segment (//)";
  if (segment === "." || segment === "..") return "has a dot segment (. or ..)";
  const literals = splitTemplates(segment, names);
  if (typeof literals === "string") return literals;
  for (const literal of literals) {
    const problem = literalProblem(literal);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

// Returns the literal parts of a segment, collecting template names; or a problem.
function splitTemplates(segment: string, names: string[]): string[] | string {
  const literals: string[] = [];
  let rest = segment;
  for (;;) {
    const open = rest.indexOf("{");
    const close = rest.indexOf("}");
    if (open === -1) {
      if (close !== -1) return "has an unbalanced }";
      literals.push(rest);
      return literals;
    }
    if (close < open) return "has an unbalanced }";
    const name = rest.slice(open + 1, close);
    if (!TEMPLATE_NAME.test(name))
      return `has the template {${name}}, which is not a simple {name}; expressions such as {+x} or {?x} are unsupported`;
    if (names.includes(name)) return `repeats the template {${name}}`;
    names.push(name);
    literals.push(rest.slice(0, open));
    rest = rest.slice(close + 1);
  }
}

function literalProblem(literal: string): string | undefined {
  const pieces = literal.split("%");
  for (let index = 1; index < pieces.length; index += 1) {
    const hex = (pieces[index] as string).slice(0, 2);
    if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return "has a malformed percent-encoding";
    if (Number.parseInt(hex, 16) < 0x80)
      return `percent-encodes the ASCII character %${hex.toUpperCase()}; encoded separators and dots are refused`;
  }
  if (!pieces.every((piece, index) => LITERAL.test(index === 0 ? piece : piece.slice(2)))) {
    return "has characters outside RFC 3986 path syntax (spaces, control or non-ASCII characters, quotes, brackets)";
  }
  return undefined;
}

function fail(problem: string): PathTemplateCheck {
  return { ok: false, reason: `the path template ${problem}` };
}
