// docs/native.md, "The call table": the calls between the addon and JS are written down in four
// places, native/forage_fuse.h (enum forage_op), native/js-calls.c (op_names, the handler each op
// calls), native/ops.c (the arguments each op queues, in order) and src/fuse/native-binding.ts
// (NativeHandlers, NativeBinding, NativeConstants). This test reads all four and holds them together,
// so that none can change alone: the C side is read with regular expressions over its plain
// declarations, the TypeScript side with the compiler's own parser.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, test } from "vitest";

const root = resolve(import.meta.dirname, "..");
const read = (path: string): string =>
  readFileSync(join(root, path), "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, " ")
    .replace(/\/\/.*$/gm, " ");

/** The enum forage_op's members in order, without OP_COUNT. */
function ops(): string[] {
  const body = /enum forage_op \{([^}]*)\}/.exec(read("native/forage_fuse.h"))?.[1] ?? "";
  return [...body.matchAll(/\b(OP_[A-Z]+)\b/g)].map((match) => match[1] as string).filter((op) => op !== "OP_COUNT");
}

/** The handler name js-calls.c looks up for each op. */
function handlerNames(): Map<string, string> {
  const body = /op_names\[OP_COUNT\] = \{([^}]*)\}/.exec(read("native/js-calls.c"))?.[1] ?? "";
  return new Map(
    [...body.matchAll(/\[(OP_[A-Z]+)\] = "(\w+)"/g)].map((match) => [match[1], match[2]] as [string, string]),
  );
}

/** The capacity of a queued message's arguments and of the JS call's argument array. */
function argumentCapacity(): { queued: number; called: number } {
  const queued = Number(/struct js_arg argv\[(\d+)\];/.exec(read("native/forage_fuse.h"))?.[1]);
  const called = Number(/napi_value fn, argv\[(\d+)\];/.exec(read("native/js-calls.c"))?.[1]);
  return { queued, called };
}

/** What each op in ops.c queues: whether it carries a request id, then each argument's JS type. */
function queuedCalls(): Map<string, { request: boolean; args: string[] }> {
  const types: Record<string, string> = { number: "number", bool: "boolean", string: "string", bytes: "Buffer" };
  const calls = new Map<string, { request: boolean; args: string[] }>();
  const pattern = /call_begin(_notice)?\(&c, \w+, (OP_[A-Z]+)\)\) return;([\s\S]*?)call_end\(&c\);/g;
  for (const [, notice, op, body] of read("native/ops.c").matchAll(pattern)) {
    const args = [...(body ?? "").matchAll(/call_(number|bool|string|bytes)\(&c,/g)].map((m) => types[m[1] as string]!);
    calls.set(op!, { request: notice === undefined, args });
  }
  return calls;
}

const binding = ts.createSourceFile(
  "native-binding.ts",
  readFileSync(join(root, "src/fuse/native-binding.ts"), "utf8"),
  ts.ScriptTarget.Latest,
  true,
);

/** An interface of native-binding.ts: each member's name, and for methods their parameters' types. */
function members(name: string): Map<string, string[] | undefined> {
  const found = binding.statements.find(
    (statement): statement is ts.InterfaceDeclaration =>
      ts.isInterfaceDeclaration(statement) && statement.name.text === name,
  );
  if (found === undefined) throw new Error(`native-binding.ts declares no interface ${name}`);
  return new Map(
    found.members.map((member) => [
      (member.name as ts.Identifier).text,
      ts.isMethodSignature(member) ? member.parameters.map((parameter) => parameter.type?.getText() ?? "") : undefined,
    ]),
  );
}

/** A C file's calls of `function(env, object, "name", ...)`: the names it exports. */
function exported(function_: string): string[] {
  return [...read("native/addon.c").matchAll(new RegExp(`${function_}\\(env, \\w+, "(\\w+)"`, "g"))].map(
    (match) => match[1] as string,
  );
}

describe("the calls from the addon into JS", () => {
  const handlers = members("NativeHandlers");

  test("every op has a handler name in js-calls.c, and those are the handlers NativeHandlers declares", () => {
    const names = handlerNames();
    expect([...names.keys()].sort()).toEqual([...ops()].sort());
    const declared = [...handlers.keys()].filter((name) => name !== "onError" && name !== "onClose");
    expect([...names.values()].sort()).toEqual(declared.sort());
  });

  test.each(ops())("%s: ops.c queues the arguments its handler takes, in order", (op) => {
    const call = queuedCalls().get(op);
    expect(call, `ops.c queues no call for ${op}`).toBeDefined();
    const parameters = handlers.get(handlerNames().get(op) ?? "");
    expect(parameters).toEqual([...(call?.request ? ["number"] : []), ...(call?.args ?? [])]);
  });

  test("a queued message holds the most arguments an op queues, and the call has room for them and the id", () => {
    const most = Math.max(...[...queuedCalls().values()].map((call) => call.args.length));
    const { queued, called } = argumentCapacity();
    expect(queued).toBeGreaterThanOrEqual(most);
    expect(called).toBe(queued + 1);
  });
});

describe("the calls from JS into the addon", () => {
  test("addon.c exports exactly the functions and values NativeBinding declares", () => {
    const declared = [...members("NativeBinding").keys()].sort();
    const values = exported("napi_set_named_property");
    expect([...exported("export_function"), ...values].sort()).toEqual(declared);
  });

  test("addon.c's constants are exactly those NativeConstants declares", () => {
    expect(exported("export_number").sort()).toEqual([...members("NativeConstants").keys()].sort());
  });
});
