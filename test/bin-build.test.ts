// The built package: docs/cli.md, "How the bin is built" and "How the bin starts Node". Runs the
// built dist/ (the bootstrap builds it before tests) in processes of its own; the launcher's lines
// with a stand-in `node` on PATH that prints what it was given.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { CLI } from "./helpers/mount-daemon.js";

const root = process.cwd();

/** What a module script run by Node in the project root prints. */
function runModule(lines: readonly string[]): string {
  return execFileSync(process.execPath, ["--input-type=module", "-e", lines.join("\n")], {
    cwd: root,
    encoding: "utf8",
  });
}

test("the bin keeps the launcher's two lines, and /bin/sh starts it", () => {
  const launcher = readFileSync(join(root, "src/cli/main.ts"), "utf8").split("\n").slice(0, 2);
  expect(readFileSync(CLI, "utf8").split("\n").slice(0, 2)).toEqual(launcher);
  const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
  expect(execFileSync("/bin/sh", [CLI, "--version"], { encoding: "utf8" }).trim()).toBe(version);
});

/** The GLIBC_TUNABLES and arguments the launcher hands `node` for `args`, a stand-in node on PATH printing them. */
function launched(args: readonly string[], tunables: string | undefined): string {
  const bin = mkdtempSync(join(tmpdir(), "forage-launcher-"));
  try {
    const node = join(bin, "node");
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell script's parameter expansion, not a template.
    writeFileSync(node, '#!/bin/sh\nprintf "%s|%s" "${GLIBC_TUNABLES-unset}" "$1"\n');
    chmodSync(node, 0o755);
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${bin}:${process.env.PATH}` };
    if (tunables === undefined) delete env.GLIBC_TUNABLES;
    else env.GLIBC_TUNABLES = tunables;
    return execFileSync("/bin/sh", [CLI, ...args], { encoding: "utf8", env });
  } finally {
    rmSync(bin, { recursive: true, force: true });
  }
}

test("a mount gets glibc's huge pages after the caller's own tunables, and a caller's hugetlb setting stays", () => {
  expect(launched(["mount", "x"], undefined)).toBe("glibc.malloc.hugetlb=1|--max-semi-space-size=8");
  expect(launched(["mount", "x"], "glibc.malloc.arena_max=2")).toBe(
    "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1|--max-semi-space-size=8",
  );
  expect(launched(["mount", "x"], "glibc.malloc.hugetlb=0")).toBe("glibc.malloc.hugetlb=0|--max-semi-space-size=8");
  expect(launched(["--version"], undefined)).toBe(`unset|${CLI}`);
});

test("the library's entries share one copy: an OpenAPI refusal is a ForageError to the main entry", () => {
  const printed = runModule([
    'import { isForageError } from "./dist/index.js";',
    'import { normalizeOpenApi } from "./dist/openapi/index.js";',
    "try { normalizeOpenApi({ swagger: '2.0' }); console.log('accepted'); }",
    "catch (error) { console.log(isForageError(error) ? 'ForageError ' + error.code : 'other: ' + error); }",
  ]);
  expect(printed).toMatch(/^ForageError \w+\n$/);
});

test("zod is the host's: the validators the package makes are instances of its z.ZodType", () => {
  const printed = runModule([
    'import { z } from "zod";',
    'import { jsonSchemaToZod } from "./dist/index.js";',
    'console.log(jsonSchemaToZod({ type: "string" }) instanceof z.ZodType);',
  ]);
  expect(printed).toBe("true\n");
});
