import { declareEnv, envDeclarationLength } from "./env-declaration.js";
import { type DeclarationSource, declareAliases, declareOperation } from "./operation-declaration.js";

/** The header every generated declaration starts with: what it is, and that it grants nothing. */
export function declarationHeader(subject: string): string {
  return `// Forage description of ${subject}.\n// Declarations only: calling env is up to the host, which decides what may run.\n\n`;
}

/** declarationHeader's length without its subject. */
const HEADER_LENGTH = declarationHeader("").length;

/** The TypeScript of one operation's description: the header, its type aliases and `env` with its member. */
export function operationTypescript(source: DeclarationSource): string {
  return `${declarationHeader(`operation ${source.path}`)}${declareAliases(source)}\n${declareEnv([declareOperation(source)])}`;
}

/** The length of operationTypescript(source), given the length of its aliases (declaredAliasesLength), without rendering them. */
export function operationTypescriptLength(source: DeclarationSource, aliasesLength: number): number {
  return (
    HEADER_LENGTH +
    "operation ".length +
    source.path.length +
    aliasesLength +
    1 +
    envDeclarationLength(declareOperation(source))
  );
}
