// The forage command without a mount: docs/cli.md, "Help", "Mount options", "Export",
// "What loading says about the sources", "Exit codes" and "Output to a closed pipe". Every case runs the built CLI (dist/cli/main.js) as its
// own process.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { CLI } from "./helpers/mount-daemon.js";

interface Run {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

function forage(...args: string[]): Run {
  const result = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8" });
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

const scratch: string[] = [];
function scratchDirectory(): string {
  const directory = mkdtempSync(join("/tmp", "forage-cli-"));
  scratch.push(directory);
  return directory;
}
afterEach(() => {
  for (const directory of scratch.splice(0)) {
    spawnSync("umount", [join(directory, "small")], { stdio: "ignore" });
    rmSync(directory, { recursive: true, force: true });
  }
});

/** What a complete help shows, per command. */
const MOUNT_HELP = [
  "--daemon",
  "--log-file FILE",
  "--watch",
  "--example",
  "--namespace NAME",
  "-o, --option OPTS",
  "-d, --debug",
  "-h, --help",
  "allow_other",
  "default_permissions",
  "auto_unmount",
  "nonempty",
  "subtree=NAMESPACE",
  "bound=FILE",
  "fusermount3 -u <mountpoint>",
  "forage unmount <mountpoint>",
  "Ctrl-C",
  "examples:",
  "exit codes:",
  "2  usage error",
];

describe("help", () => {
  test.each([
    ["forage --help", ["--help"]],
    ["forage help", ["help"]],
  ])("%s prints every command's complete usage on stdout and exits 0", (_what, args) => {
    const run = forage(...args);
    expect(run.status).toBe(0);
    expect(run.stderr).toBe("");
    for (const text of [...MOUNT_HELP, "forage unmount <mountpoint>", "forage export", "forage openapi preview"])
      expect(run.stdout).toContain(text);
  });

  test.each([
    ["mount", ["mount", "--help"], MOUNT_HELP],
    ["mount", ["help", "mount"], MOUNT_HELP],
    ["mount", ["mount", "-h"], MOUNT_HELP],
    ["export", ["export", "--help"], ["subtree=NAMESPACE", "--example", "no .search/", "examples:", "exit codes:"]],
    ["export", ["help", "export"], ["subtree=NAMESPACE", "--example", "no .search/", "examples:", "exit codes:"]],
    ["unmount", ["unmount", "--help"], ["fusermount3 -u", "dead mount", "examples:", "exit codes:"]],
    ["openapi", ["openapi", "--help"], ["--json", "--auth-parameter NAME", "examples:", "exit codes:"]],
    ["openapi", ["help", "openapi"], ["--json", "--auth-parameter NAME", "examples:", "exit codes:"]],
    ["openapi", ["openapi", "preview", "--help"], ["--json", "--auth-parameter NAME", "examples:", "exit codes:"]],
  ])("forage %s help (%j) is complete and exits 0", (_command, args, texts) => {
    const run = forage(...args);
    expect(run.status).toBe(0);
    for (const text of texts) expect(run.stdout).toContain(text);
  });

  // docs/cli.md, "Output to a closed pipe": `true` exits before forage writes, so every write meets EPIPE.
  test.each([["--help"], ["--version"], ["openapi", "--help"]])(
    "forage %s into a closed pipe exits 0 without a trace",
    (...args) => {
      const command = [process.execPath, CLI, ...args].map((word) => `'${word}'`).join(" ");
      const run = spawnSync("bash", ["-c", `${command} | true; echo "exit \${PIPESTATUS[0]}"`], { encoding: "utf8" });
      expect(run.stderr).toBe("");
      expect(run.stdout).toBe("exit 0\n");
    },
  );

  test("a bare forage prints the usage to stderr and exits 2", () => {
    const run = forage();
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("forage mount");
    expect(run.stderr).toContain("exit codes:");
  });
});

describe("usage errors exit 2 with one line on stderr", () => {
  test.each([
    [["frobnicate"], /unknown command "frobnicate"/],
    [["mount", "--nope", "--example", "m"], /unknown option --nope/],
    [["mount", "-o", "bogus", "--example", "m"], /unknown or incomplete mount option "bogus".*allow_other/],
    [["mount", "-o", "subtree=", "--example", "m"], /incomplete mount option "subtree="/],
    [["mount", "--log-file", "x.log", "--example", "m"], /--log-file goes with --daemon/],
    [["mount", "--namespace"], /--namespace needs a value/],
    [["mount", "--example", "m", "-o"], /-o, --option needs a value/],
    [["mount", "--watch=yes", "--example", "m"], /--watch takes no value/],
    [["mount", "--example"], /missing the mountpoint/],
    [["mount", "--example", "a", "b"], /--example takes no source/],
    [["export", "-o", "allow_other", "--example", "t"], /-o allow_other applies to mount, not export/],
    [["export", "-o", "auto_unmount", "--example", "t"], /-o auto_unmount applies to mount, not export/],
    [["unmount"], /give exactly one mountpoint/],
    [["unmount", "a", "b"], /give exactly one mountpoint/],
    [["openapi"], /usage: forage openapi preview/],
    [["openapi", "preview"], /usage: forage openapi preview/],
    [["help", "frobnicate"], /no help for "frobnicate"/],
  ])("forage %j", (args, message) => {
    const run = forage(...args);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(/^forage: /);
    expect(run.stderr).toMatch(message);
  });
});

describe("runtime failures exit 1", () => {
  test.each([
    ["an unreadable source", () => ["export", "/nonexistent/ops.yaml", join(scratchDirectory(), "out")]],
    [
      "an unreadable bound file",
      () => ["export", "-o", "bound=/nonexistent", "--example", join(scratchDirectory(), "o")],
    ],
    ["a mountpoint that does not exist", () => ["mount", "--example", join(scratchDirectory(), "missing")]],
    ["unmounting what is not mounted", () => ["unmount", scratchDirectory()]],
  ])("%s", (_what, args) => {
    const run = forage(...args());
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(/^forage: /);
  });
});

describe("export tells the truth", () => {
  test("an export is AFI profile 1: no .search/, no /.afi/search, and README and manifest say so", () => {
    const out = join(scratchDirectory(), "tree");
    const run = forage("export", "--example", out);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/exported 40 operations as \d+ files .*AFI profile 1/);
    expect(existsSync(join(out, ".search"))).toBe(false);
    expect(existsSync(join(out, ".afi/search"))).toBe(false);
    const manifest = JSON.parse(readFileSync(join(out, ".afi/manifest.json"), "utf8"));
    expect(manifest.profile).toBe(1);
    expect(manifest.capabilities).toEqual(["stat", "list", "read"]);
    expect(JSON.stringify(manifest)).not.toContain(".search");
    const readme = readFileSync(join(out, "README.md"), "utf8");
    expect(readme).not.toContain(".search");
    expect(readme).toContain("grep -ri");
    expect(readme).toMatch(/no `\.afi\/search`/);
  });

  test("counts agree with their noun: 1 operation, 1 file", () => {
    const directory = scratchDirectory();
    const catalog = join(directory, "one.yaml");
    writeFileSync(catalog, "operations:\n  - path: one.only\n    inputSchema: { type: object }\n");
    const run = forage("export", "-o", "subtree=one", catalog, join(directory, "out"));
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/exported 1 operation as \d+ files/);
    expect(run.stdout).not.toMatch(/1 operations/);
  });

  test("a source that fails leaves no directory behind", () => {
    const out = join(scratchDirectory(), "absent", "tree");
    expect(forage("export", "/nonexistent/ops.yaml", out).status).toBe(1);
    expect(existsSync(join(out, ".."))).toBe(false);
  });

  test("a non-empty directory is refused and kept as it was", () => {
    const out = scratchDirectory();
    writeFileSync(join(out, "mine.txt"), "keep me");
    const run = forage("export", "--example", out);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/is not empty/);
    expect(readdirSync(out)).toEqual(["mine.txt"]);
  });

  const root = process.getuid?.() === 0;
  if (!root) console.log("export write-failure tests skipped: mounting a small tmpfs needs root");
  test.skipIf(!root).each([
    ["removes the directories it created", "small/new/tree", true],
    ["empties, but keeps, an empty directory that was there", "small/existing", false],
  ])("a write that fails midway %s", (_what, relative, created) => {
    // A 16 KiB tmpfs runs out of space partway through the example's tree.
    const directory = scratchDirectory();
    const small = join(directory, "small");
    mkdirSync(small);
    expect(spawnSync("mount", ["-t", "tmpfs", "-o", "size=16k", "tmpfs", small]).status).toBe(0);
    if (!created) mkdirSync(join(small, "existing"));
    const run = forage("export", "--example", join(directory, relative));
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/failed and was removed: .*ENOSPC/);
    expect(readdirSync(small)).toEqual(created ? [] : ["existing"]);
    if (!created) expect(readdirSync(join(small, "existing"))).toEqual([]);
  });
});

describe("what loading says about the sources", () => {
  /** A folder of `servers` tools/list files, each with one tool shown not validated and one left out. */
  function toolsFolder(servers: number): string {
    const folder = scratchDirectory();
    for (let index = 0; index < servers; index++) {
      const tools = [
        { name: "ok", inputSchema: { type: "object", properties: { q: { type: "string" } } } },
        { name: "dated", inputSchema: { type: "object", properties: { at: { type: "string", format: "date" } } } },
        { name: "bare", description: "No input schema." },
      ];
      writeFileSync(join(folder, `server${index}.json`), JSON.stringify({ tools }));
    }
    return folder;
  }
  const lines = (run: Run): string[] => run.stderr.trimEnd().split("\n");

  test("up to five sources, one line per source and kind", () => {
    const run = forage("export", toolsFolder(5), join(scratchDirectory(), "out"));
    expect(run.status, run.stderr).toBe(0);
    expect(lines(run)).toHaveLength(10);
    expect(lines(run)).toContain(
      "forage: server0: 1 operation not validated (of 3 declared); the mount shows it from the source's own schemas, marked [not validated], each .json with the reason",
    );
    expect(lines(run)).toContain(
      "forage: server4: 1 operation unsupported (of 3 declared); the mount lists it with the reasons in server4/@unsupported.txt",
    );
  });

  test("more sources are summed, one line per kind, however many there are", () => {
    const run = forage("export", toolsFolder(40), join(scratchDirectory(), "out"));
    expect(run.status, run.stderr).toBe(0);
    expect(lines(run)).toEqual([
      "forage: 40 operations not validated in 40 sources (server0 1, server1 1, server10 1, and 37 more); the mount shows them from the sources' own schemas, marked [not validated], each .json with the reason; each namespace's line in @index.txt counts its own",
      "forage: 40 operations unsupported in 40 sources (server0 1, server1 1, server10 1, and 37 more); each source's @unsupported.txt lists its own with the reasons",
    ]);
  });
});
