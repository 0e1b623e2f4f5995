import { randomBytes } from "node:crypto";
import { posix } from "node:path";
import type { Transport } from "./afi-client.js";
import { entrySchema, listSchema, schemaProblem } from "./afi-schemas.js";
import type { SampleDirectory, SampleEntry } from "./provider-sample.js";
import { type CheckContext, expectCode, fail, okValue, type Scenario } from "./scenario.js";

/** FUSE's readdir has no limit, cursor or glob: the kernel pages, and globbing is the shell's. */
const PAGING: { transports: readonly Transport[]; because: string } = {
  transports: ["http", "mcp"],
  because: "FUSE's readdir has no limit, cursor or glob",
};
/** Most entries stat'd against their listing. */
const MAX_STATS = 25;

/** A name under `/` that the root's listing does not hold. */
export function missingPath(context: CheckContext): string {
  const root = context.sample.directories.find((directory) => directory.path === "/");
  for (;;) {
    const path = `/afi-check-missing-${randomBytes(4).toString("hex")}`;
    if (!root?.children.some((child) => child.path === path)) return path;
  }
}

/** Every page of a listing, following next_cursor with `limit`; fails on any reply that is not a page. */
async function pages(context: CheckContext, path: string, limit: number, most: number): Promise<string[]> {
  const paths: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < most; page += 1) {
    const reply = await context.client.list(path, cursor === undefined ? { limit } : { limit, cursor });
    const value = okValue(reply, `a page of ${path}`) as { entries?: SampleEntry[]; next_cursor?: string };
    const entries = value.entries ?? [];
    if (entries.length > limit) fail(`a page of limit ${limit} held ${entries.length} entries`, reply);
    paths.push(...entries.map((entry) => entry.path));
    cursor = value.next_cursor;
    if (cursor === undefined) return paths;
    if (entries.length === 0) fail("an empty page with a next_cursor", reply);
  }
  fail(`${path} kept paging past ${most} pages`);
}

/** The sampled directory with the most children (at least `least`). */
function fullestDirectory(context: CheckContext, least: number): SampleDirectory | undefined {
  const sorted = [...context.sample.directories].sort((a, b) => b.children.length - a.children.length);
  return sorted[0] !== undefined && sorted[0].children.length >= least ? sorted[0] : undefined;
}

/** The kit's glob probe: a prefix of a plain name, and which children it must keep. */
function globProbe(
  context: CheckContext,
): { directory: SampleDirectory; glob: string; expected: string[] } | undefined {
  for (const directory of context.sample.directories) {
    const names = directory.children.map((child) => posix.basename(child.path));
    for (const name of names) {
      const prefix = name.slice(0, 2);
      if (!/^[A-Za-z0-9_-]{2}$/.test(prefix)) continue;
      const expected = names.filter((candidate) => candidate.startsWith(prefix));
      if (expected.length < names.length) return { directory, glob: `${prefix}*`, expected };
    }
  }
  return undefined;
}

function declaredListOrder(context: CheckContext): boolean {
  const manifest = context.manifest as Record<string, unknown>;
  const list = manifest.list as Record<string, unknown> | undefined;
  return manifest["x-list-ordering"] !== undefined || list?.["x-ordering"] !== undefined;
}

/** stat and list (AFI operations/stat, operations/list). */
export const STAT_LIST_SCENARIOS: readonly Scenario[] = [
  {
    id: "statlist-01",
    group: "stat / list",
    title: "stat of a path that does not exist is not_found",
    level: 0,
    run: async (context) => {
      expectCode(await context.client.stat(missingPath(context)), "not_found");
      return "pass";
    },
  },
  {
    id: "statlist-02",
    group: "stat / list",
    title: "list of a file is invalid_path",
    level: 0,
    run: async ({ client, sample }) => {
      const [file] = sample.files;
      if (file === undefined) return { skip: "the walk found no file" };
      expectCode(await client.list(file.path), "invalid_path");
      return "pass";
    },
  },
  {
    id: "statlist-03",
    group: "stat / list",
    title: "list answers Entries of the right shape, each a direct child, once",
    level: 0,
    run: async ({ client, sample }) => {
      const schema = listSchema(client.features.contentType);
      for (const directory of sample.directories)
        for (const reply of directory.replies) {
          const problem = schemaProblem(schema, okValue(reply, `a page of ${directory.path}`));
          if (problem !== undefined) fail(`a page of ${directory.path} does not match: ${problem}`, reply);
        }
      for (const directory of sample.directories) {
        const paths = directory.children.map((child) => child.path);
        const stray = paths.find((path) => posix.dirname(path) !== directory.path || path === directory.path);
        if (stray !== undefined)
          fail(`${stray} is listed in ${directory.path} but is not its child`, directory.replies[0]);
        const twice = paths.find((path, index) => paths.indexOf(path) !== index);
        if (twice !== undefined) fail(`${twice} is listed twice in ${directory.path}`, directory.replies[0]);
      }
      return "pass";
    },
  },
  {
    id: "statlist-04",
    group: "stat / list",
    title: "list pages by cursor: the pages joined are the whole listing, in order",
    level: 0,
    only: PAGING,
    run: async (context) => {
      const directory = fullestDirectory(context, 2);
      if (directory === undefined) return { skip: "the walk found no directory with two children" };
      const whole = directory.children.map((child) => child.path);
      const limit = Math.max(1, Math.ceil(whole.length / 3));
      const joined = await pages(context, directory.path, limit, whole.length + 2);
      if (JSON.stringify(joined) !== JSON.stringify(whole))
        fail(
          `${directory.path} in pages of ${limit} is not its whole listing: ${joined.length} vs ${whole.length} entries`,
        );
      return "pass";
    },
  },
  {
    id: "statlist-05",
    group: "stat / list",
    title: "list's glob keeps exactly the child names it matches",
    level: 0,
    only: PAGING,
    run: async (context) => {
      const probe = globProbe(context);
      if (probe === undefined) return { skip: "the walk found no plain name to glob by" };
      const reply = await context.client.list(probe.directory.path, { glob: probe.glob });
      const value = okValue(reply, "the matching children") as { entries?: SampleEntry[]; next_cursor?: string };
      const got = (value.entries ?? []).map((entry) => posix.basename(entry.path));
      if (value.next_cursor === undefined && JSON.stringify(got) !== JSON.stringify(probe.expected))
        fail(`glob ${probe.glob} kept ${JSON.stringify(got)}, not ${JSON.stringify(probe.expected)}`, reply);
      return "pass";
    },
  },
  {
    id: "statlist-06",
    group: "stat / list",
    title: "stat of a listed child is the Entry its listing gave",
    level: 0,
    run: async ({ client, sample }) => {
      const schema = entrySchema(client.features.contentType);
      const children = sample.directories.flatMap((directory) => directory.children).slice(0, MAX_STATS);
      for (const child of children) {
        const reply = await client.stat(child.path);
        const entry = okValue(reply, `the Entry of ${child.path}`);
        const problem = schemaProblem(schema, entry);
        if (problem !== undefined) fail(`the Entry of ${child.path} does not match: ${problem}`, reply);
        for (const field of ["path", "type", "size", "target", "content_type"] as const)
          if ((entry as Record<string, unknown>)[field] !== child[field])
            fail(`${child.path}: stat's ${field} differs from list's (${String(child[field])})`, reply);
      }
      return "pass";
    },
  },
  {
    id: "statlist-07",
    group: "stat / list",
    title: "list of a path that does not exist is not_found",
    level: 0,
    run: async (context) => {
      expectCode(await context.client.list(missingPath(context)), "not_found");
      return "pass";
    },
  },
  {
    id: "statlist-08",
    group: "stat / list",
    title: "list / succeeds",
    level: 0,
    run: async ({ client }) => {
      okValue(await client.list("/"), "the root's children");
      return "pass";
    },
  },
  {
    id: "statlist-09",
    group: "stat / list",
    title: "stat does not follow a symlink, whose target is an absolute path",
    level: 0,
    run: async ({ client, sample }) => {
      const [link] = sample.symlinks;
      if (link === undefined) return { skip: "the walk found no symlink" };
      const reply = await client.stat(link.path);
      const entry = okValue(reply, `the Entry of ${link.path}`) as { type?: unknown; target?: unknown };
      if (entry.type !== "symlink") fail(`stat of the symlink ${link.path} says ${String(entry.type)}`, reply);
      if (typeof entry.target !== "string" || !entry.target.startsWith("/"))
        fail(`the symlink's target ${String(entry.target)} is not an absolute path`, reply);
      return "pass";
    },
  },
  {
    id: "statlist-10",
    group: "stat / list",
    title: "list is in lexicographic path order, unless the manifest declares another",
    level: 0,
    run: async (context) => {
      if (declaredListOrder(context)) return { skip: "the manifest declares its own list order" };
      for (const directory of context.sample.directories) {
        const paths = directory.children.map((child) => child.path);
        const index = paths.findIndex((path, at) => at > 0 && (paths[at - 1] as string) > path);
        if (index > 0) fail(`${directory.path} lists ${paths[index - 1]} before ${paths[index]}`, directory.replies[0]);
      }
      return "pass";
    },
  },
];
