// docs/native.md, "Layers": every C file of native/ is in the layer table, and each calls only
// functions of files in lower layers, so native/ has no call cycle. The table is read from the
// page itself, so the page and the code cannot drift apart.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, test } from "vitest";

const root = resolve(import.meta.dirname, "..");
const native = join(root, "native");
const page = readFileSync(join(root, "docs/native.md"), "utf8");

/** Layer by file name, from the rows of the table under "### Layers". */
function layers(): Map<string, number> {
  const start = page.indexOf("### Layers\n");
  if (start === -1) throw new Error('docs/native.md has no section "Layers"');
  const end = page.indexOf("\n#", start + 1);
  const byFile = new Map<string, number>();
  for (const row of page.slice(start, end === -1 ? undefined : end).split("\n")) {
    const cells = row.split("|").map((cell) => cell.trim());
    if (!/^\d+$/.test(cells[1] ?? "")) continue;
    for (const [, file] of (cells[2] ?? "").matchAll(/`native\/([\w-]+\.c)`/g)) byFile.set(file!, Number(cells[1]));
  }
  return byFile;
}

/** C source without comments, strings and character literals, which must not count as calls. */
function code(file: string): string {
  return readFileSync(join(native, file), "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, " ")
    .replace(/\/\/.*$/gm, " ")
    .replace(/"(?:\\.|[^"\\\n])*"/g, '""')
    .replace(/'(?:\\.|[^'\\\n])*'/g, "''");
}

/** Names of the functions a file defines for other files: non-static definitions at column 0. */
function exported(source: string): string[] {
  const names: string[] = [];
  for (const match of source.matchAll(/^(?!static\b)[A-Za-z_][\w \t*]*?\b([a-z_]\w*)\s*\(/gm)) {
    let depth = 1;
    let i = match.index + match[0].length;
    for (; i < source.length && depth > 0; i++) depth += source[i] === "(" ? 1 : source[i] === ")" ? -1 : 0;
    if (/^\s*\{/.test(source.slice(i))) names.push(match[1]!);
  }
  return names;
}

const files = readdirSync(native).filter((file) => file.endsWith(".c"));
const sources = new Map(files.map((file) => [file, code(file)]));
const definedIn = new Map(files.flatMap((file) => exported(sources.get(file)!).map((name) => [name, file] as const)));

/** Each file's calls into other files: "caller.c -> callee.c (function)". */
const calls = files.flatMap((caller) =>
  [...definedIn]
    .filter(([name, callee]) => callee !== caller && new RegExp(`\\b${name}\\s*\\(`).test(sources.get(caller)!))
    .map(([name, callee]) => ({ caller, callee, name })),
);

describe("native/ layering", () => {
  test("the layer table names every C file, and binding.gyp builds exactly those", () => {
    const gyp = readFileSync(join(native, "binding.gyp"), "utf8");
    const built = [...gyp.matchAll(/"([\w-]+\.c)"/g)].map((match) => match[1]);
    expect([...layers().keys()].sort()).toEqual([...files].sort());
    expect([...built].sort()).toEqual([...files].sort());
  });

  test("the functions other files call are found (the check is not vacuous)", () => {
    expect(definedIn.get("session_mount")).toBe("session.c");
    expect(definedIn.get("ops_new_session")).toBe("ops.c");
    expect(calls).toContainEqual({ caller: "session.c", callee: "ops.c", name: "ops_new_session" });
  });

  test("every call goes to a file of a lower layer, so there is no cycle", () => {
    const layer = layers();
    const upward = calls
      .filter(({ caller, callee }) => (layer.get(caller) ?? -1) <= (layer.get(callee) ?? -1))
      .map(
        ({ caller, callee, name }) =>
          `${caller} (layer ${layer.get(caller)}) -> ${callee} (layer ${layer.get(callee)}): ${name}`,
      );
    expect(upward).toEqual([]);
  });
});
