// docs/afi.md, "Tokens": one table of (token, path, visible?) for the example catalog, asked the same
// way over every transport, so HTTP, MCP and FUSE must cloak alike.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";

/** The tokens of the table, each with the bound patterns the tokens file grants it. */
export const TOKENS = {
  alice: { token: "alice-0123456789abcdef", bound: ["computers.local.files.*"] },
  bob: { token: "bob-0123456789abcdef/+=", bound: ["mail.**", "weather.**"] },
  carol: { token: "carol-0123456789abcdef", bound: ["computers.local.files.read", "mail.messages.send"] },
} as const;

/** A token the file does not grant. */
export const UNKNOWN_TOKEN = "mallory-0123456789abcdef";

export type TokenName = keyof typeof TOKENS;

/** One path and whether each token's view has it; an operation's `.d.ts` also names words that rank it. */
interface AccessCase {
  readonly path: string;
  readonly visible: Readonly<Record<TokenName, boolean>>;
  readonly query?: string;
}

const seen = (alice: boolean, bob: boolean, carol: boolean) => ({ alice, bob, carol });

export const ACCESS_CASES: readonly AccessCase[] = [
  { path: "/computers", visible: seen(true, false, true) },
  { path: "/mail", visible: seen(false, true, true) },
  { path: "/weather", visible: seen(false, true, false) },
  { path: "/translate", visible: seen(false, false, false) },
  { path: "/computers/local/files", visible: seen(true, false, true) },
  { path: "/computers/local/shell", visible: seen(false, false, false) },
  { path: "/computers/local/files/read.d.ts", visible: seen(true, false, true), query: "read a file" },
  { path: "/computers/local/files/write.d.ts", visible: seen(true, false, false), query: "write a file" },
  { path: "/computers/local/shell/run.d.ts", visible: seen(false, false, false), query: "run a shell command" },
  { path: "/mail/messages/send.d.ts", visible: seen(false, true, true), query: "send an email" },
  { path: "/mail/drafts/create.d.ts", visible: seen(false, true, false), query: "create a draft" },
  { path: "/weather/air_quality/current.d.ts", visible: seen(false, true, false), query: "air quality" },
];

/** A line every operation's `.d.ts` holds, so an exact search for it finds every visible declaration. */
export const DECLARATION_LINE = "Forage description of operation";

/** How a transport is asked; each answer is what a user of that transport sees. */
export interface AccessProbe {
  /** stat (FUSE: ls -d): true when the path exists, false when it is not_found (ENOENT); anything else throws. */
  exists(path: string): Promise<boolean>;
  /** A directory's child names, or undefined when the directory is not_found. */
  names(path: string): Promise<readonly string[] | undefined>;
  /** Every file with a line holding `text`: AFI exact search (FUSE: grep -rlF). */
  searchFiles(text: string): Promise<readonly string[]>;
  /** The operation paths Forage's ranked search answers for `query`. */
  ranked(query: string): Promise<readonly string[]>;
  /** A file's text. */
  read(path: string): Promise<string>;
}

/** Writes the tokens file of the table (mode 0600) into `directory` and returns its path. */
export function writeTokensFile(directory: string): string {
  const file = join(directory, "tokens.txt");
  const lines = Object.values(TOKENS).map(({ token, bound }) => `${token}  ${bound.join(" ")}`);
  writeFileSync(file, `# the table's tokens\n${lines.join("\n")}\n`, { mode: 0o600 });
  return file;
}

/** Writes a file holding one token (mode 0600) and returns its path. */
export function writeTokenFile(directory: string, name: string, token: string): string {
  const file = join(directory, `${name}.token`);
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return file;
}

/** Asks every case of the table through `probe` as `token` sees it. */
export async function expectTableCloaking(probe: AccessProbe, token: TokenName): Promise<void> {
  const found = new Set(await probe.searchFiles(DECLARATION_LINE));
  const rootIndex = await probe.read("/@index.txt");
  for (const { path, visible, query } of ACCESS_CASES) {
    const expected = visible[token];
    const where = `${token}: ${path}`;
    expect(await probe.exists(path), `${where} exists`).toBe(expected);
    const parent = path.slice(0, path.lastIndexOf("/")) || "/";
    const name = path.slice(parent.length === 1 ? 1 : parent.length + 1);
    expect((await probe.names(parent))?.includes(name) ?? false, `${where} is listed in ${parent}`).toBe(expected);
    if (parent === "/") expect(rootIndex.includes(`\n${name}/ `), `${where} is in /@index.txt`).toBe(expected);
    if (query !== undefined) {
      expect(found.has(path), `${where} is found by exact search`).toBe(expected);
      const operation = path.slice(1, -".d.ts".length).replaceAll("/", ".");
      expect((await probe.ranked(query)).includes(operation), `${where} is ranked for "${query}"`).toBe(expected);
    }
  }
  // Nothing outside the view leaks through search, whatever the table lists.
  const allowed = (file: string): boolean =>
    TOKENS[token].bound.some((pattern) => matchesPattern(file.slice(1, -".d.ts".length).replaceAll("/", "."), pattern));
  expect(
    [...found].filter((file) => !allowed(file)),
    `${token}: exact search outside the view`,
  ).toEqual([]);
}

/** A bound pattern (a.b.c, a.b.*, a.**) against an operation path, for the leak check only. */
function matchesPattern(operation: string, pattern: string): boolean {
  if (pattern.endsWith(".**")) return operation.startsWith(pattern.slice(0, -2));
  if (pattern.endsWith(".*")) {
    const prefix = pattern.slice(0, -1);
    return operation.startsWith(prefix) && !operation.slice(prefix.length).includes(".");
  }
  return operation === pattern;
}
