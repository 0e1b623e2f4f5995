// The built package: docs/cli.md, "How the bin is built" and "How the bin starts Node". Runs the
// built dist/ (the bootstrap builds it before tests) in processes of its own.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
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
