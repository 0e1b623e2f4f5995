// A real FUSE mount, read with real shell tools, against docs/afi.md "Names", "Search scope" and
// "Match context": what reaches the daemon from the kernel, and what each name and request gets back.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  freshMountpoint,
  mountSkipReason,
  quote,
  removeMountpoint,
  sh,
  startDaemon,
  stopAllDaemons,
} from "./helpers/mount-daemon.js";

const skip = mountSkipReason();
if (skip !== undefined) console.log(`mount tests skipped: ${skip}`);

const NAME_MAX = 1_024;

describe.skipIf(skip !== undefined)("forage mount --example: names and search", () => {
  let mnt: string;

  beforeAll(async () => {
    mnt = freshMountpoint("names");
    await startDaemon(["--example"], mnt);
  });
  afterAll(async () => {
    await stopAllDaemons();
    removeMountpoint(mnt);
  });

  test("names that are not UTF-8 name nothing: never merged with U+FFFD or with each other", () => {
    const at = quote(join(mnt, ".search"));
    // U+FFFD itself is a valid name, so a query directory.
    expect(sh(`stat -c %F ${at}/$'\\xef\\xbf\\xbd'`).stdout.trim()).toBe("directory");
    for (const bytes of ["\\xff", "\\xfe", "\\xc0\\xaf", "\\xed\\xa0\\x80", "send\\x80email"]) {
      for (const tool of ["stat", "ls"]) {
        const result = sh(`${tool} ${at}/$'${bytes}'`);
        expect(result.status, `${tool} ${bytes}`).not.toBe(0);
        expect(result.stderr, `${tool} ${bytes}`).toMatch(/No such file or directory/);
      }
      expect(sh(`stat ${quote(join(mnt, "mail"))}/$'${bytes}'`).stderr).toMatch(/No such file or directory/);
    }
  });

  test(`statfs, lookups and /.search agree on one name limit: ${NAME_MAX} bytes`, () => {
    expect(sh(`stat -f -c %l ${quote(mnt)}`).stdout.trim()).toBe(String(NAME_MAX));
    expect(sh(`getconf NAME_MAX ${quote(mnt)}`).stdout.trim()).toBe(String(NAME_MAX));
    const longest = "a".repeat(NAME_MAX);
    const query = quote(join(mnt, ".search", longest));
    expect(sh(`stat -c %F ${query}`).stdout.trim()).toBe("directory");
    expect(sh(`ls ${query}`).stdout.split("\n")).toContain("results.json");
    expect(JSON.parse(sh(`cat ${query}/results.json`).stdout).query).toBe(longest);
    expect(sh(`stat ${quote(join(mnt, "mail", longest))}`).stderr).toMatch(/No such file or directory/);
  });

  test.each([
    ["one byte over, ASCII", "a".repeat(NAME_MAX + 1)],
    ["over 1,024 characters (the catalog's query bound)", "send an email ".repeat(80)],
    ["over in bytes though not in characters", "é".repeat(NAME_MAX / 2 + 1)],
  ])("a name %s is ENAMETOOLONG under /.search and /mail, for stat, ls and cat alike", (_case, name) => {
    for (const directory of [".search", "mail"]) {
      const path = quote(join(mnt, directory, name));
      for (const command of [`stat ${path}`, `ls ${path}`, `cat ${path}/results.json`]) {
        const result = sh(command);
        expect(result.status, command.slice(0, 40)).not.toBe(0);
        expect(result.stderr).toMatch(/File name too long/);
      }
    }
  });

  test("a search scoped to a /.search query directory answers; every match carries its context", () => {
    const control = quote(join(mnt, ".afi/search"));
    const scoped = sh(
      `printf '%s' '{"query":"email","opts":{"path":"/.search/send an email"}}' > ${control} && cat ${control}`,
    );
    expect(scoped.status, scoped.stderr).toBe(0);
    const paths = scoped.stdout
      .trimEnd()
      .split("\n")
      .map((line) => (JSON.parse(line) as { path: string }).path);
    expect(paths.length).toBeGreaterThan(0);
    for (const path of paths) expect(path.startsWith("/.search/send an email/")).toBe(true);
    const found = sh(`printf '%s' '{"query":"SIGKILL","opts":{"limit":5}}' > ${control} && cat ${control}`);
    const matches = found.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(matches.length).toBeGreaterThan(0);
    for (const match of matches) {
      const lines = sh(`cat ${quote(join(mnt, match.path))}`).stdout.split("\n");
      expect(match.context.before).toEqual(lines.slice(Math.max(0, match.line - 3), match.line - 1));
      expect(match.context.after).toEqual(lines.slice(match.line, match.line + match.context.after.length));
    }
  });
});
