// docs/afi.md, "Tokens": the tokens file's format and every refusal (naming the file and line, never the
// token), the token file of -o token=FILE, the token table's lookup, and the CLI's usage errors.
import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { TokenTable } from "../src/afi/token-table.js";
import { parseTokens, readTokenFile, readTokensFile } from "../src/afi/tokens-file.js";
import { isForageError } from "../src/forage-error.js";
import { CLI } from "./helpers/mount-daemon.js";

const run = promisify(execFile);
const GOOD = "good-token-0123456789";
const OTHER = "other-token-0123456789";

let directory: string;
beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), "forage-tokens-file-"));
});
afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

/** Writes `text` to a file of `directory` with `mode` and returns its path. */
function file(name: string, text: string, mode = 0o600): string {
  const path = join(directory, name);
  writeFileSync(path, text, { mode });
  chmodSync(path, mode);
  return path;
}

/** The ForageError a call throws. */
function refusal(call: () => unknown): { message: string; code: string } {
  try {
    call();
  } catch (error) {
    expect(isForageError(error, "invalid_argument")).toBe(true);
    return error as { message: string; code: string };
  }
  throw new Error("expected a refusal");
}

describe("the tokens file", () => {
  test("one grant a line, TOKEN PATTERN...; comments, blank lines and CRLF are skipped", () => {
    const text = `# who sees what\r\n\r\n${GOOD}  computers.local.files.*  mail.**  # Alice's agent\r\n${OTHER} weather.forecast.daily\n`;
    expect(parseTokens(text, "tokens file t.txt")).toEqual([
      { token: GOOD, bound: ["computers.local.files.*", "mail.**"], origin: "tokens file t.txt, line 3" },
      { token: OTHER, bound: ["weather.forecast.daily"], origin: "tokens file t.txt, line 4" },
    ]);
  });

  test.each([
    ["a short token", `${GOOD} a.b\nshort-token a.b`, /line 2: a token is at least 16 characters, this one is 11/],
    ["a duplicate token", `${GOOD} a.b\n\n${GOOD} c.d`, /line 3: the token of line 1 again; each token once/],
    ["a token without a pattern", `${GOOD}`, /line 1: a token needs at least one bound pattern/],
    ["a character Bearer cannot carry", `gööd-token-0123456789 a.b`, /line 1: a token is letters, digits and/],
    ["a pattern that is not an operation path", `${GOOD} a..b`, /line 1: bound pattern "a\.\.b" is not an operation/],
    ["a ** that is not last", `${GOOD} a.**.b`, /line 1: bound pattern "a\.\*\*\.b": segment "\*\*"/],
  ])("%s is refused, naming the file and line and never the token", (_, text, message) => {
    const error = refusal(() => parseTokens(text, "tokens file t.txt"));
    expect(error.message).toMatch(/^tokens file t\.txt, line \d+: /);
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain(GOOD);
  });

  test("more than 1,000 tokens are refused at the line past the bound", () => {
    const lines = Array.from({ length: 1_001 }, (_, index) => `token-${String(index).padStart(12, "0")} a.b`);
    expect(refusal(() => parseTokens(lines.join("\n"), "tokens file t.txt")).message).toMatch(
      /line 1001: more than 1000 tokens/,
    );
  });

  test.each([
    ["grants no token", () => file("comments.txt", "# nobody yet\n\n"), /grants no token/],
    ["may be read by other users", () => file("open.txt", `${GOOD} a.b\n`, 0o644), /\(mode 644\): chmod 600 /],
    ["may be read by its group", () => file("group.txt", `${GOOD} a.b\n`, 0o640), /\(mode 640\): chmod 600 /],
    ["is missing", () => join(directory, "absent.txt"), /cannot read tokens file .*absent\.txt: ENOENT/],
    [
      "is a directory",
      () => {
        mkdirSync(join(directory, "dir"), { mode: 0o700 });
        return join(directory, "dir");
      },
      /is not a regular file/,
    ],
  ])("a tokens file that %s is refused", (_, make, message) => {
    expect(refusal(() => readTokensFile(make())).message).toMatch(message);
  });
});

describe("the token file (-o token=FILE)", () => {
  test("holds one token; its final newline is not part of it", () => {
    expect(readTokenFile(file("lf.token", `${GOOD}\n`))).toBe(GOOD);
    expect(readTokenFile(file("crlf.token", `${GOOD}\r\n`))).toBe(GOOD);
    expect(readTokenFile(file("bare.token", GOOD))).toBe(GOOD);
  });

  test.each([
    ["empty", "", /the token is empty/],
    ["two lines", `${GOOD}\n${OTHER}\n`, /holds more than one line/],
    ["a short token", "short\n", /at least 16 characters/],
    ["a token with a space", `${GOOD} x\n`, /a token is letters, digits/],
  ])("%s is refused", (name, text, message) => {
    expect(refusal(() => readTokenFile(file(`${name}.token`, text))).message).toMatch(message);
  });

  test("is refused when other users may read it", () => {
    expect(refusal(() => readTokenFile(file("open.token", GOOD, 0o604))).message).toMatch(/chmod 600/);
  });
});

describe("the token table", () => {
  const table = new TokenTable([
    [GOOD, "good view"],
    [OTHER, "other view"],
  ]);

  test("finds each granted token's value", () => {
    expect(table.find(GOOD)).toBe("good view");
    expect(table.find(OTHER)).toBe("other view");
  });

  test.each([
    ["an unknown token", "unknown-token-0123456789"],
    ["a granted token's prefix", GOOD.slice(0, -1)],
    ["a granted token and more", `${GOOD}0`],
    ["a granted token in upper case", GOOD.toUpperCase()],
    ["the empty token", ""],
  ])("%s finds nothing", (_, token) => {
    expect(table.find(token)).toBeUndefined();
  });
});

describe("forage's usage errors", () => {
  let tokens: string;
  let token: string;
  beforeAll(() => {
    tokens = file("cli-tokens.txt", `${GOOD} computers.local.files.*\n`);
    token = file("cli.token", `${GOOD}\n`);
  });

  /** Runs forage and returns its exit code and stderr. */
  async function forage(args: readonly string[]): Promise<{ code: number; stderr: string }> {
    try {
      await run(process.execPath, [CLI, ...args], { timeout: 45_000 }); // a hang guard only
      return { code: 0, stderr: "" };
    } catch (error) {
      const failed = error as { code: number; stderr: string };
      return { code: failed.code, stderr: failed.stderr };
    }
  }

  test.each([
    [
      "a bad tokens file (serve)",
      () => ["serve", "--http", "0", "--tokens", file("dup.txt", `${GOOD} a.b\n${GOOD} c.d\n`), "--example"],
      /^forage: tokens file .*dup\.txt, line 2: the token of line 1 again/,
    ],
    [
      "a bad tokens file (mount)",
      () => [
        "mount",
        "--tokens",
        file("open-cli.txt", `${GOOD} a.b\n`, 0o644),
        "-o",
        `token=${token}`,
        "--example",
        "m",
      ],
      /chmod 600/,
    ],
    [
      "--tokens with bound=",
      () => ["serve", "--http", "0", "--tokens", tokens, "-o", `bound=${tokens}`, "--example"],
      /give one/,
    ],
    ["token= without --tokens", () => ["serve", "--mcp", "-o", `token=${token}`, "--example"], /goes with --tokens/],
    [
      "token= over HTTP",
      () => ["serve", "--http", "0", "--tokens", tokens, "-o", `token=${token}`, "--example"],
      /goes with --mcp/,
    ],
    [
      "token= on an export",
      () => ["export", "-o", `token=${token}`, "--example", "out"],
      /unknown or incomplete mount option/,
    ],
  ])("%s exits 2 with a message", async (_, args, message) => {
    const { code, stderr } = await forage(args());
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr).not.toContain(GOOD);
  });

  test("a token whose patterns select no operation exits 1, naming its line", async () => {
    const none = file("none.txt", `${GOOD} computers.local.files.*\n${OTHER} nosuch.**\n`);
    const { code, stderr } = await forage(["serve", "--http", "0", "--tokens", none, "--example"]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/tokens file .*none\.txt, line 2 selects no operation of this catalog/);
  });
});
