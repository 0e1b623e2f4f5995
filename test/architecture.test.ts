// docs/architecture.md, "Modules" and "Layering rules": every module the page names exists, every
// folder of src/ is named, and no import under src/ breaks a rule the page lists. The rules are read
// from the page itself, so the page and this test cannot drift apart.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, test } from "vitest";

const root = resolve(import.meta.dirname, "..");
const page = readFileSync(join(root, "docs/architecture.md"), "utf8");

/** One layering rule: files under `subjects` may not import `forbidden`, or may import `scope` only through `allowed`. */
type Rule =
  | { readonly line: string; readonly subjects: string[]; readonly kind: "nothing"; readonly forbidden: string[] }
  | {
      readonly line: string;
      readonly subjects: string[];
      readonly kind: "only";
      readonly scope: string;
      readonly allowed: string[];
    };

function backticked(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)].map((match) => (match[1] as string).replace(/\/$/, ""));
}

function section(heading: string): string {
  const start = page.indexOf(`## ${heading}\n`);
  if (start === -1) throw new Error(`docs/architecture.md has no section "${heading}"`);
  const next = page.indexOf("\n## ", start + 1);
  return page.slice(start, next === -1 ? undefined : next);
}

function parseRule(line: string): Rule {
  const nothing = /^- (.+?) imports? nothing from (.+)$/.exec(line);
  if (nothing !== null)
    return {
      line,
      subjects: backticked(nothing[1] as string),
      kind: "nothing",
      forbidden: backticked(nothing[2] as string),
    };
  const only = /^- (.+?) imports? from `([^`]+)` only (.+)$/.exec(line);
  if (only !== null)
    return {
      line,
      subjects: backticked(only[1] as string),
      kind: "only",
      scope: only[2] as string,
      allowed: backticked(only[3] as string),
    };
  throw new Error(`docs/architecture.md: a layering rule this test cannot read: ${line}`);
}

const rules = section("Layering rules")
  .split("\n")
  .filter((line) => line.startsWith("- "))
  .map(parseRule);

/** Module names in the page: the first cell of each row of the Modules table. */
const modules = section("Modules")
  .split("\n")
  .filter((line) => /^\| `/.test(line))
  .map((line) => backticked(line.split("|")[1] as string)[0] as string);

/** A module the page says is still arriving from another branch may be absent; anything else must exist. */
function arriving(module: string): boolean {
  return page.includes(`\`${module}\` is arriving`);
}

function sourceFiles(directory: string): string[] {
  return readdirSync(join(root, directory), { withFileTypes: true }).flatMap((entry) => {
    const path = `${directory}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** The repository paths a file imports (static, dynamic, type-only and re-exports), resolved from .js to .ts. */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(join(root, file), "utf8"), true, true);
  return info.importedFiles
    .map((imported) => imported.fileName)
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => relative(root, resolve(root, dirname(file), specifier)).replace(/\.js$/, ".ts"));
}

/** True when `path` is the module `module` or lies inside it. */
function within(path: string, module: string): boolean {
  return path === module || path.startsWith(`${module}/`);
}

const files = sourceFiles("src");

describe("docs/architecture.md, Modules", () => {
  test("the page lists modules and rules", () => {
    expect(modules.length).toBeGreaterThan(5);
    expect(rules.length).toBeGreaterThan(3);
  });

  const named = [...new Set([...modules, ...rules.flatMap((rule) => [...rule.subjects, ...backticked(rule.line)])])];
  test.each(named)("%s exists", (module) => {
    if (!existsSync(join(root, module)) && arriving(module)) {
      console.log(`[architecture] ${module} is not in this checkout yet; the page marks it as arriving`);
      return;
    }
    expect(existsSync(join(root, module)), `${module} is named in docs/architecture.md`).toBe(true);
  });

  test("every folder and top-level file of src/ is in the Modules table", () => {
    const entries = readdirSync(join(root, "src")).map((name) =>
      statSync(join(root, "src", name)).isDirectory() || name.endsWith(".ts") ? `src/${name}` : undefined,
    );
    const missing = entries.filter((entry) => entry !== undefined && !modules.includes(entry));
    expect(missing).toEqual([]);
  });
});

describe("docs/architecture.md, Layering rules", () => {
  test.each(rules.map((rule) => [rule.line, rule] as const))("%s", (_line, rule) => {
    const broken: string[] = [];
    for (const file of files.filter((path) => rule.subjects.some((subject) => within(path, subject)))) {
      for (const target of importsOf(file)) {
        if (rule.subjects.some((subject) => within(target, subject))) continue;
        if (rule.kind === "nothing" && rule.forbidden.some((module) => within(target, module)))
          broken.push(`${file} imports ${target}`);
        if (rule.kind === "only" && within(target, rule.scope) && !rule.allowed.includes(target))
          broken.push(`${file} imports ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  test("the import scan sees imports, so an empty result above means something", () => {
    expect(importsOf("src/fuse/mount.ts")).toContain("src/tree/virtual-tree.ts");
    expect(importsOf("src/sources/load-catalog.ts")).toContain("src/sources/openapi-source.ts"); // a dynamic import
  });
});

describe("docs/architecture.md, Modules: src/lazy-yaml.ts", () => {
  test("no module but src/lazy-yaml.ts loads yaml at run time, so a mount of JSON sources never loads it", () => {
    // A value import or re-export (not `import type`, which compiles away), or a call with "yaml":
    // require("yaml"), createRequire(…)("yaml"), import("yaml").
    const loadsYaml = /^import\s+(?!type\s)[^;]*\sfrom\s+"yaml"|^export\s[^;]*\sfrom\s+"yaml"|\(\s*"yaml"\s*\)/m;
    const loaders = files.filter((file) => loadsYaml.test(readFileSync(join(root, file), "utf8")));
    expect(loaders).toEqual(["src/lazy-yaml.ts"]);
  });
});
