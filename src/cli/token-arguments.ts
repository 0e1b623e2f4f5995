import { TokenTable } from "../afi/token-table.js";
import { readTokenFile, readTokensFile, type TokenGrant } from "../afi/tokens-file.js";
import { ForageError } from "../forage-error.js";
import { CliError } from "./cli-error.js";
import type { OptionSpec } from "./command-line.js";
import type { MountArguments } from "./mount-arguments.js";

/** `--tokens FILE`, for mount and serve. */
export const TOKENS_OPTION: OptionSpec = {
  name: "tokens",
  value: "FILE",
  help: 'a file of bearer tokens, one a line with its bound= patterns: TOKEN PATTERN... (docs/afi.md, "Tokens")',
};

/**
 * `--tokens FILE` with `-o token=FILE` on a mount: the token's grant is the mount's
 * bound view for its whole life. Checked before anything is mounted; any mistake,
 * an unknown token included, is a usage error (exit 2) and nothing is served.
 */
export function mountTokenView(
  tokensFile: string | undefined,
  options: Pick<MountArguments, "bound" | "tokenFile">,
): Pick<MountArguments, "bound" | "boundOrigin" | "authRequired"> {
  checkTokenOptions(tokensFile, options, "mount");
  if (tokensFile === undefined) return { bound: options.bound };
  if (options.tokenFile === undefined)
    throw new CliError("--tokens on a mount needs -o token=FILE: the file holding the mount's token", 2);
  const grant = grantOf(tokenGrants(tokensFile), options.tokenFile);
  if (grant === undefined)
    throw new CliError(`the token in ${options.tokenFile} is not granted by tokens file ${tokensFile}`, 2);
  return { bound: grant.bound, boundOrigin: grant.origin, authRequired: true };
}

/** token= goes with --tokens, and --tokens replaces bound=, on every command that takes them. */
export function checkTokenOptions(
  tokensFile: string | undefined,
  options: Pick<MountArguments, "bound" | "tokenFile">,
  command: string,
): void {
  if (options.tokenFile !== undefined && tokensFile === undefined)
    throw new CliError(`-o token=FILE goes with --tokens FILE; see forage ${command} --help`, 2);
  if (tokensFile !== undefined && options.bound !== undefined)
    throw new CliError("--tokens and -o bound= both choose the view; give one (a token's patterns are its bound)", 2);
}

/** The grants of `--tokens FILE`; a bad file is a usage error (exit 2) naming the file and line. */
export function tokenGrants(file: string): TokenGrant[] {
  return asUsageError(() => readTokensFile(file));
}

/** The grant of the token held in `tokenFile` (looked up in constant time), or undefined for an unknown token. */
export function grantOf(grants: readonly TokenGrant[], tokenFile: string): TokenGrant | undefined {
  const token = asUsageError(() => readTokenFile(tokenFile));
  return new TokenTable(grants.map((grant) => [grant.token, grant] as const)).find(token);
}

function asUsageError<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof ForageError) throw new CliError(`${error.message} (${error.code})`, 2);
    throw error;
  }
}
