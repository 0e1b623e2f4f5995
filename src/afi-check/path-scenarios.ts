import { posix } from "node:path";
import type { Transport } from "./afi-client.js";
import type { ProviderSample } from "./provider-sample.js";
import { type CheckContext, expectCode, fail, flipCase, okValue, type Scenario, type Verdict } from "./scenario.js";

/** Over FUSE the kernel resolves a path before the provider sees it, so these laws are the kernel's. */
const RAW_PATHS: { transports: readonly Transport[]; because: string } = {
  transports: ["http", "mcp"],
  because: "over FUSE the kernel resolves paths before the provider sees them",
};

/** The first directory below the root the walk found, with its name. */
function subdirectory(sample: ProviderSample): { path: string; name: string } | undefined {
  const directory = sample.directories.find((candidate) => candidate.path !== "/" && !candidate.path.startsWith("/."));
  return directory === undefined ? undefined : { path: directory.path, name: posix.basename(directory.path) };
}

/** Each spelling of the same directory must stat as that directory, under its normal path. */
async function sameDirectory(context: CheckContext, spell: (path: string, name: string) => string[]): Promise<Verdict> {
  const directory = subdirectory(context.sample);
  if (directory === undefined) return { skip: "the walk found no directory below /" };
  for (const spelling of spell(directory.path, directory.name)) {
    const reply = await context.client.stat(spelling);
    const entry = okValue(reply, `the Entry of ${directory.path}`) as { path?: unknown; type?: unknown };
    if (entry.path !== directory.path || entry.type !== "directory")
      fail(`stat(${JSON.stringify(spelling)}) is not the directory ${directory.path}`, reply);
  }
  return "pass";
}

/** A name with a letter whose other case names no sibling: the case-sensitivity probe. */
function caseProbe(sample: ProviderSample): { path: string; flipped: string; type: string } | undefined {
  for (const directory of sample.directories)
    for (const child of directory.children) {
      const name = posix.basename(child.path);
      const flippedName = flipCase(name);
      if (flippedName === name || name.startsWith(".")) continue;
      const flipped = posix.join(directory.path, flippedName);
      if (
        directory.children.some((sibling) => sibling.path.toLowerCase() === flipped.toLowerCase() && sibling !== child)
      )
        continue;
      return { path: child.path, flipped, type: child.type };
    }
  return undefined;
}

/** Path model (AFI path-model): the root, normalisation, refusals, case sensitivity. */
export const PATH_SCENARIOS: readonly Scenario[] = [
  {
    id: "path-01",
    group: "Path model",
    title: "stat / is a directory",
    level: 0,
    run: async ({ client }) => {
      const reply = await client.stat("/");
      const entry = okValue(reply, "the root's Entry") as { type?: unknown; path?: unknown };
      if (entry.type !== "directory" || entry.path !== "/") fail("the root is not the directory /", reply);
      return "pass";
    },
  },
  {
    id: "path-02",
    group: "Path model",
    title: "a path with .. escaping the root is invalid_path",
    level: 0,
    only: RAW_PATHS,
    run: async ({ client }) => {
      for (const path of ["/..", "/../etc", "/a/../../b"]) expectCode(await client.stat(path), "invalid_path");
      return "pass";
    },
  },
  {
    id: "path-03",
    group: "Path model",
    title: "a path with a NUL byte is invalid_path",
    level: 0,
    only: RAW_PATHS,
    run: async ({ client }) => {
      expectCode(await client.stat("/a\u0000b"), "invalid_path");
      return "pass";
    },
  },
  {
    id: "path-04",
    group: "Path model",
    title: "case sensitivity is as path.case_sensitive declares",
    level: 0,
    run: async ({ client, manifest, sample }) => {
      const probe = caseProbe(sample);
      if (probe === undefined) return { skip: "the walk found no name with a letter to flip" };
      const reply = await client.stat(probe.flipped);
      if (manifest.path.case_sensitive) expectCode(reply, "not_found");
      else if ((okValue(reply, `the Entry of ${probe.path}`) as { type?: unknown }).type !== probe.type)
        fail(`${probe.flipped} is not ${probe.path} on a case-insensitive provider`, reply);
      return "pass";
    },
  },
  {
    id: "path-05",
    group: "Path model",
    title: "a trailing slash is stripped",
    level: 0,
    only: RAW_PATHS,
    run: (context) => sameDirectory(context, (path) => [`${path}/`]),
  },
  {
    id: "path-06",
    group: "Path model",
    title: "// collapses, . is dropped and .. within the root is applied",
    level: 0,
    only: RAW_PATHS,
    run: (context) =>
      sameDirectory(context, (path, name) => [
        `/${path}`,
        `${path}/.`,
        `${path.replace(/^\//, "//")}`,
        `${path}/../${name}`,
      ]),
  },
  {
    id: "path-07",
    group: "Path model",
    title: "a relative path is invalid_path",
    level: 0,
    only: RAW_PATHS,
    run: async ({ client, sample }) => {
      const directory = subdirectory(sample);
      if (directory === undefined) return { skip: "the walk found no directory below /" };
      expectCode(await client.stat(directory.path.slice(1)), "invalid_path");
      return "pass";
    },
  },
  {
    id: "path-08",
    group: "Path model",
    title: "a path longer than path.max_length is invalid_path",
    level: 0,
    only: RAW_PATHS,
    run: async ({ client, manifest }) => {
      const max = manifest.path.max_length;
      if (max > 65_536) return { skip: `path.max_length is ${max}: too long a path to send` };
      let path = "";
      while (path.length <= max) path += `/${"a".repeat(200)}`;
      // Cut to max + 1 characters, never at a slash, which normalisation would strip.
      const tooLong = path.slice(0, max + 1).replace(/\/$/, "a");
      expectCode(await client.stat(tooLong), "invalid_path");
      return "pass";
    },
  },
];
