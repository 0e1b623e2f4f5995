// An editor over the mount: docs/mount.md, "Editors" (and "Reserved names" for index and package).
// The TypeScript language service runs over the tree's files in memory, and over a real FUSE mount.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, test } from "vitest";
import { z } from "zod";
import {
  type Catalog,
  createCatalog,
  createExampleCatalog,
  type OperationDescription,
  scaledExampleOperations,
} from "../src/index.js";
import { createCatalogTree } from "../src/tree/catalog-tree.js";
import { walkTree } from "../src/tree/walk-tree.js";
import { listAll } from "./helpers/forage-assertions.js";
import {
  freshMountpoint,
  mountSkipReason,
  removeMountpoint,
  startDaemon,
  stopAllDaemons,
} from "./helpers/mount-daemon.js";

const decoder = new TextDecoder();
const compilerOptions: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ["lib.es2022.d.ts"],
  types: [],
};

/** Every regular file of a catalog's tree, keyed by its path under `root`, as `forage export` writes them. */
function treeFiles(catalog: Catalog, root: string, subtree?: string): Map<string, string> {
  const tree = createCatalogTree(catalog, {
    revision: catalog.revision,
    stamp: catalog.stamp(),
    providerVersion: "0.0.0-test",
    subtree,
    searchControl: false,
    rankedSearchDirectory: false,
  });
  const files = new Map<string, string>();
  for (const { path, entry } of walkTree(tree)) {
    if (entry.kind === "file") files.set(`${root}${path}`, decoder.decode(tree.read(path)));
  }
  return files;
}

/** A project of one file, `main.ts`, whose text is set per question; everything else comes from `files` or the disk. */
class Project {
  readonly main: string;
  private text = "";
  private version = 0;
  readonly service: ts.LanguageService;

  constructor(files: ReadonlyMap<string, string>, directory: string, options: ts.CompilerOptions = compilerOptions) {
    this.main = join(directory, "main.ts");
    const read = (path: string) => (path === this.main ? this.text : (files.get(path) ?? ts.sys.readFile(path)));
    const directories = new Set<string>();
    for (const path of files.keys()) {
      for (let at = path; at !== "/"; ) directories.add((at = at.slice(0, at.lastIndexOf("/")) || "/"));
    }
    const host: ts.LanguageServiceHost = {
      getCompilationSettings: () => options,
      getScriptFileNames: () => [this.main],
      getScriptVersion: (path) => (path === this.main ? String(this.version) : "0"),
      getScriptSnapshot: (path) => {
        const text = read(path);
        return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
      },
      getCurrentDirectory: () => directory,
      getDefaultLibFileName: (settings) => ts.getDefaultLibFilePath(settings),
      fileExists: (path) => path === this.main || files.has(path) || ts.sys.fileExists(path),
      readFile: read,
      directoryExists: (path) => directories.has(path) || ts.sys.directoryExists(path),
      getDirectories: (path) => ts.sys.getDirectories(path),
      realpath: (path) => path,
    };
    this.service = ts.createLanguageService(host, ts.createDocumentRegistry());
  }

  /** Sets main.ts to `text` with one `@` marking a position; returns that position. */
  write(text: string): number {
    const at = text.indexOf("@");
    this.text = at === -1 ? text : text.slice(0, at) + text.slice(at + 1);
    this.version += 1;
    return at;
  }

  completions(text: string): string[] {
    const at = this.write(text);
    return (this.service.getCompletionsAtPosition(this.main, at, {})?.entries ?? []).map((entry) => entry.name);
  }

  /** The files go-to-definition offers for the name at the marker. */
  definitions(text: string): string[] {
    const at = this.write(text);
    return (this.service.getDefinitionAtPosition(this.main, at) ?? []).map((definition) => definition.fileName);
  }

  hover(text: string): string {
    const at = this.write(text);
    const info = this.service.getQuickInfoAtPosition(this.main, at);
    return `${ts.displayPartsToString(info?.displayParts)}\n${ts.displayPartsToString(info?.documentation)}`;
  }

  errors(text: string): string[] {
    this.write(text);
    return [...this.service.getSyntacticDiagnostics(this.main), ...this.service.getSemanticDiagnostics(this.main)].map(
      (diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"),
    );
  }
}

/** The consumer's preamble: the mount's env, imported as the brief's `import type` and given a value to call. */
const preamble = (specifier: string) =>
  `import type { env as Env } from ${JSON.stringify(specifier)};\ndeclare const env: typeof Env;\n`;

/** The `.d.ts` an operation's definition must land in, under `root`. */
const operationFile = (root: string, path: string) => `${root}/${path.split(".").join("/")}.d.ts`;

describe("the example catalog, over the tree's files", () => {
  const catalog = createExampleCatalog();
  const root = "/forage-example";
  const files = treeFiles(catalog, root);
  const project = new Project(files, "/consumer");
  const head = preamble(root);
  const operations = listAll(catalog);

  test("the root has package.json whose types is index.d.ts", () => {
    expect(JSON.parse(files.get(`${root}/package.json`) as string)).toMatchObject({ types: "./index.d.ts" });
    expect(files.has(`${root}/index.d.ts`)).toBe(true);
    expect(files.has(`${root}/@namespace.d.ts`)).toBe(false);
  });

  test.each(operations.map((operation) => [operation.path, operation] as const))(
    "%s: one definition in its own file, hover shows its description, its sample type-checks",
    (path, operation) => {
      const call = `${head}env.${path}@;\n`.replace(/\.([^.]+)@/, ".@$1");
      expect(project.definitions(call)).toEqual([operationFile(root, path)]);
      expect(project.hover(call)).toContain(operation.description.split("\n")[0]);
      expect(project.errors(`${head}export const result = ${operation.sample.replace(/^await /, "")};\n`)).toEqual([]);
    },
  );

  test("completions on env.<ns>. list the namespace's children", () => {
    expect(project.completions(`${head}env.@`)).toEqual(
      expect.arrayContaining(["apps", "calendar", "computers", "mail", "weather"]),
    );
    expect(project.completions(`${head}env.mail.messages.@`).sort()).toEqual(["archive", "read", "search", "send"]);
    expect(project.completions(`${head}env.computers.local.@`).sort()).toEqual(["files", "processes", "shell"]);
  });

  test("a namespace is defined once, in its @namespace.d.ts", () => {
    expect(project.definitions(`${head}env.mail.@messages.send;\n`)).toEqual([`${root}/mail/messages/@namespace.d.ts`]);
    expect(project.definitions(`${head}env.@mail;\n`)).toEqual([`${root}/mail/@namespace.d.ts`]);
  });

  test("a wrong field is an error that names it", () => {
    const errors = project.errors(`${head}env.mail.messages.send({ to: ["a@b.c"], subject: 5, body: "" });\n`);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/'number' is not assignable to type 'string'/);
    expect(project.errors(`${head}env.mail.messages.sned({ to: [], subject: "", body: "" });\n`)[0]).toMatch(
      /Property 'sned' does not exist/,
    );
  });

  test("a subtree mount's index declares env under the subtree's full path", () => {
    const subRoot = "/forage-bazaar";
    const sub = new Project(treeFiles(catalog, subRoot, "apps.bazaar"), "/consumer-sub");
    const subHead = preamble(subRoot);
    expect(sub.completions(`${subHead}env.apps.bazaar.@`).sort()).toEqual(["cart", "catalog", "windows"]);
    expect(sub.definitions(`${subHead}env.apps.bazaar.cart.@add;\n`)).toEqual([`${subRoot}/cart/add.d.ts`]);
    expect(sub.errors(`${subHead}env.apps.bazaar.cart.add({ productId: "p1" });\n`)).toEqual([]);
  });

  test("operations named index and package at the root do not take the editor's files", () => {
    const odd = createCatalog({
      revision: "odd",
      operations: ["index", "package", "tsconfig"].map((name) => ({
        path: `ns.${name}`,
        description: `The ${name} operation.`,
        input: z.object({ n: z.number() }),
      })),
    });
    const oddRoot = "/forage-odd";
    const oddFiles = treeFiles(odd, oddRoot, "ns");
    expect([...oddFiles.keys()].filter((path) => path.endsWith(".d.ts")).sort()).toEqual(
      ["index.d.ts", "index.op.d.ts", "package.op.d.ts", "tsconfig.op.d.ts"].map((name) => `${oddRoot}/${name}`),
    );
    const oddProject = new Project(oddFiles, "/consumer-odd");
    const oddHead = preamble(oddRoot);
    expect(oddProject.definitions(`${oddHead}env.ns.@package({ n: 1 });\n`)).toEqual([`${oddRoot}/package.op.d.ts`]);
    expect(
      oddProject.errors(`${oddHead}env.ns.index({ n: 1 }); env.ns.package({ n: 2 }); env.ns.tsconfig({ n: 3 });\n`),
    ).toEqual([]);
  });
});

describe("several thousand operations, over the tree's files", () => {
  const size = 5_000;
  const catalog = createCatalog({ revision: "scaled", operations: scaledExampleOperations(size) });
  const root = "/forage-scaled";
  const files = treeFiles(catalog, root);
  const project = new Project(files, "/consumer-scaled");
  const head = preamble(root);

  test("index.d.ts declares every operation: completions, hover, one definition, errors", () => {
    expect(catalog.list().total).toBe(size);
    expect(project.completions(`${head}env.@`)).toHaveLength(Math.ceil(size / 40));
    const last = listAll(catalog, { namespace: "tenant0124" }).at(-1);
    expect(last).toBeDefined();
    for (const path of ["tenant0000.mail.messages.send", "tenant0062.apps.bazaar.cart.add", last?.path as string]) {
      const segments = path.split(".");
      const parent = segments.slice(0, -1).join(".");
      expect(project.completions(`${head}env.${parent}.@`)).toContain(segments.at(-1));
      const call = `${head}env.${parent}.@${segments.at(-1)};\n`;
      expect(project.definitions(call)).toEqual([operationFile(root, path)]);
      expect(project.hover(call)).toContain(
        (catalog.describe(path) as OperationDescription).description.split("\n")[0],
      );
    }
    expect(project.errors(`${head}env.tenant0099.mail.messages.send({ to: [], subject: 5, body: "" });\n`)).toEqual([
      expect.stringMatching(/'number' is not assignable to type 'string'/),
    ]);
    const composed = [...files.keys()].filter(
      (path) => path.endsWith("/index.d.ts") || path.endsWith("@namespace.d.ts"),
    );
    const program = project.service.getProgram() as ts.Program;
    for (const path of composed) expect(program.getSemanticDiagnostics(program.getSourceFile(path)), path).toEqual([]);
  });
});

const skip = mountSkipReason();
describe.skipIf(skip !== undefined)("the example catalog over a real FUSE mount", () => {
  if (skip !== undefined) console.log(`skipped: ${skip}`);
  afterAll(stopAllDaemons);

  test("a project maps a path to the mountpoint; tsc -p checks every file the mount serves", async () => {
    const mnt = freshMountpoint("editor");
    const consumer = mkdtempSync(join("/tmp", "forage-editor-consumer-"));
    try {
      await startDaemon(["--example", "-o", "ro"], mnt);
      const catalog = createExampleCatalog();
      const project = new Project(new Map(), consumer, { ...compilerOptions, paths: { "forage-env": [mnt] } });
      const head = preamble("forage-env");
      expect(project.completions(`${head}env.weather.@`).sort()).toEqual(["air_quality", "forecast"].sort());
      const call = `${head}env.mail.messages.@send;\n`;
      expect(project.definitions(call)).toEqual([join(mnt, "mail/messages/send.d.ts")]);
      expect(project.hover(call)).toContain(
        (catalog.describe("mail.messages.send") as OperationDescription).description,
      );
      expect(project.errors(`${head}env.mail.messages.send({ to: [], subject: 5, body: "" });\n`)).toEqual([
        expect.stringMatching(/'number' is not assignable to type 'string'/),
      ]);
      const tsc = spawnSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", mnt], { encoding: "utf8" });
      expect(tsc.stdout + tsc.stderr).toBe("");
      expect(tsc.status).toBe(0);
    } finally {
      await stopAllDaemons();
      removeMountpoint(mnt);
      rmSync(consumer, { recursive: true, force: true });
    }
  });
});
