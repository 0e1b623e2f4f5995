import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { boundMatcher } from "../catalog/bound-patterns.js";
import { ForageError, type ForageErrorDetails } from "../forage-error.js";

/** One line of a tokens file: a bearer token and the bound patterns of the view it selects. */
export interface TokenGrant {
  readonly token: string;
  readonly bound: readonly string[];
  /** Where it was granted, for messages: `tokens file ./tokens.txt, line 3`. */
  readonly origin: string;
}

/** The shortest token accepted: shorter ones are guessable, so a file holding one is refused. */
export const MIN_TOKEN_LENGTH = 16;
/** The most tokens one file may grant, checked before any view is built. */
export const MAX_TOKENS = 1_000;
/** The largest tokens (or token) file read. */
const MAX_FILE_BYTES = 1_024 * 1_024;
/** RFC 6750's b64token: what may follow `Bearer ` in an Authorization header, so every token can be sent. */
const TOKEN_SYNTAX = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * Reads a tokens file (docs/afi.md, "Tokens"): one grant a line, `TOKEN PATTERN...`,
 * the patterns those of `bound=`; blank lines and `#` comments are skipped. Every
 * mistake is a ForageError naming the file and line.
 */
export function readTokensFile(file: string): TokenGrant[] {
  const grants = parseTokens(readSecretFile(file, "tokens file"), `tokens file ${file}`);
  if (grants.length === 0) throw invalid(`tokens file ${file} grants no token`, { file });
  return grants;
}

/** Parses the text of a tokens file; `source` names it in messages. */
export function parseTokens(text: string, source: string): TokenGrant[] {
  const grants: TokenGrant[] = [];
  const seen = new Map<string, number>();
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const words = raw.replace(/#.*/, "").trim().split(/\s+/).filter(Boolean);
    const [token, ...bound] = words;
    if (token === undefined) continue;
    const line = index + 1;
    const origin = `${source}, line ${line}`;
    const problem =
      tokenProblem(token) ?? (bound.length === 0 ? "a token needs at least one bound pattern" : undefined);
    if (problem !== undefined) throw invalid(`${origin}: ${problem}`, { line });
    const earlier = seen.get(token);
    if (earlier !== undefined)
      throw invalid(`${origin}: the token of line ${earlier} again; each token once`, { line });
    try {
      boundMatcher(bound);
    } catch (error) {
      throw invalid(`${origin}: ${error instanceof Error ? error.message : String(error)}`, { line });
    }
    if (grants.length === MAX_TOKENS) throw invalid(`${origin}: more than ${MAX_TOKENS} tokens`, { line });
    seen.set(token, line);
    grants.push({ token, bound, origin });
  }
  return grants;
}

/** Reads a file holding one token (`-o token=FILE`): its one line, without the newline. */
export function readTokenFile(file: string): string {
  const token = readSecretFile(file, "token file").replace(/\r?\n$/, "");
  const problem = /[\r\n]/.test(token) ? "it holds more than one line" : tokenProblem(token);
  if (problem !== undefined) throw invalid(`token file ${file}: ${problem}`, { file });
  return token;
}

/** Why `token` is refused, if it is; the token itself is never quoted, since messages reach logs. */
function tokenProblem(token: string): string | undefined {
  if (token.length === 0) return "the token is empty";
  if (!TOKEN_SYNTAX.test(token)) return "a token is letters, digits and - . _ ~ + / (then = padding), as Bearer takes";
  if (token.length < MIN_TOKEN_LENGTH)
    return `a token is at least ${MIN_TOKEN_LENGTH} characters, this one is ${token.length}`;
  return undefined;
}

/**
 * A file holding secrets, read through one descriptor (so the mode checked is the file's
 * read): refused when other users may access it, as ssh refuses a private key.
 */
function readSecretFile(file: string, what: string): string {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (error) {
    throw invalid(`cannot read ${what} ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { file });
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw invalid(`${what} ${file} is not a regular file`, { file });
    if ((stat.mode & 0o077) !== 0)
      throw invalid(
        `${what} ${file} may be accessed by other users (mode ${(stat.mode & 0o777).toString(8)}): chmod 600 ${file}`,
        { file },
      );
    if (stat.size > MAX_FILE_BYTES) throw invalid(`${what} ${file} is over ${MAX_FILE_BYTES} bytes`, { file });
    const buffer = Buffer.alloc(stat.size);
    const length = readSync(fd, buffer, 0, stat.size, 0);
    return buffer.subarray(0, length).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

function invalid(message: string, details: ForageErrorDetails["invalid_argument"]): ForageError<"invalid_argument"> {
  return new ForageError("invalid_argument", message, details);
}
