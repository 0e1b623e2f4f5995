// forage mount through a real FUSE mount, read with real tools in separate processes, checked
// against docs/afi.md ("Profile", "Errors", "The search control file", "The manifest") and docs/mount.md.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { createExampleCatalog, createForage } from "../src/index.js";
import { createCatalogTree, NAMESPACE_FILE } from "../src/tree/catalog-tree.js";
import { walkTree } from "../src/tree/walk-tree.js";
import {
  type Daemon,
  freshMountpoint,
  mountinfoLine,
  mountSkipReason,
  quote,
  removeMountpoint,
  sh,
  startDaemon,
  stopAllDaemons,
} from "./helpers/mount-daemon.js";

const skip = mountSkipReason();
if (skip !== undefined) console.log(`mount tests skipped: ${skip}`);

const catalog = createExampleCatalog();
const expectedTree = createCatalogTree(catalog, {
  revision: catalog.revision,
  stamp: catalog.stamp(),
  providerVersion: "x",
});

describe.skipIf(skip !== undefined)("forage mount --example", () => {
  let daemon: Daemon;
  let mnt: string;

  beforeAll(async () => {
    mnt = freshMountpoint("example");
    daemon = await startDaemon(["--example"], mnt);
  });
  afterAll(async () => {
    await stopAllDaemons();
    removeMountpoint(mnt);
  });

  test("prints where it mounted", () => {
    expect(daemon.output()).toContain(`mounted ${catalog.size} operations at ${mnt}`);
  });

  test("ls -f shows readdir in list order", () => {
    const listed = sh(`ls -f ${quote(join(mnt, "computers/local/files"))}`)
      .stdout.trim()
      .split("\n");
    expect(listed).toEqual([".", "..", ...expectedTree.list("/computers/local/files").map((entry) => entry.name)]);
    const root = sh(`ls -f ${quote(mnt)}`)
      .stdout.trim()
      .split("\n");
    expect(root).toEqual([".", "..", ...expectedTree.list("/").map((entry) => entry.name)]);
    // Operation files across the whole mount, in `find` (readdir) order, follow catalog list order.
    const found = sh(
      `cd ${quote(mnt)} && find . -path ./.afi -prune -o -name '*.d.ts' ! -name '${NAMESPACE_FILE}' ! -path ./index.d.ts -print`,
    )
      .stdout.trim()
      .split("\n");
    const listedPaths = catalog
      .list({ limit: 50 })
      .results.map((summary) => `./${summary.path.split(".").join("/")}.d.ts`);
    expect(found).toEqual(listedPaths);
  });

  test("cat returns describe output, and stat sizes equal the bytes read", () => {
    expect(sh(`cat ${quote(join(mnt, "computers/local/files/read.d.ts"))}`).stdout).toBe(
      catalog.describe("computers.local.files.read").typescript,
    );
    const json = JSON.parse(sh(`cat ${quote(join(mnt, "mail/messages/send.json"))}`).stdout);
    expect(json.path).toBe("mail.messages.send");
    expect(json.inputSchema.properties.to.maxItems).toBe(50);
    const sizes = sh(`cd ${quote(mnt)} && find . -path ./.afi/search -prune -o -type f -printf '%s %p\\n'`)
      .stdout.trim()
      .split("\n");
    for (const line of sizes) {
      const [size, path] = line.split(" ") as [string, string];
      expect(Number(size), path).toBe(Number(sh(`wc -c < ${quote(join(mnt, path))}`).stdout.trim()));
    }
  });

  test("find -type f counts every file of the tree", () => {
    const expected = [...walkTree(expectedTree)].filter(({ entry }) => entry.kind === "file").length;
    expect(Number(sh(`find ${quote(mnt)} -type f | wc -l`).stdout.trim())).toBe(expected);
    expect(Number(sh(`find ${quote(mnt)} -type d | wc -l`).stdout.trim())).toBe(
      [...walkTree(expectedTree)].filter(({ entry }) => entry.kind === "directory").length + 2,
    ); // + the root and .search
  });

  test("grep -r finds exactly the files whose text matches", () => {
    const result = sh(`grep -rl 'reads the local disk' ${quote(mnt)} | sort`);
    expect(result.status).toBe(0);
    const expected = [...walkTree(expectedTree)]
      .filter(
        ({ path, entry }) =>
          entry.kind === "file" &&
          !entry.writable &&
          new TextDecoder().decode(expectedTree.read(path)).includes("reads the local disk"),
      )
      .map(({ path }) => `${mnt}${path}`)
      .sort();
    expect(result.stdout.trim().split("\n")).toEqual(expected);
    expect(sh(`grep -rn 'capability spends money' ${quote(mnt)}`).stdout).toContain("apps/bazaar/cart/checkout.d.ts:");
  });

  test("the manifest satisfies the AFI manifest schema (seed 004)", () => {
    const manifest = z
      .object({
        afi_version: z.string(),
        provider: z.string(),
        provider_version: z.string(),
        profile: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]),
        capabilities: z.array(z.string()),
        search: z
          .object({
            modes: z.array(z.enum(["exact", "regex", "semantic"])),
            max_results: z
              .number()
              .int()
              .min(0)
              .max(2 ** 32 - 1),
          })
          .catchall(z.unknown()),
        path: z.object({
          case_sensitive: z.boolean(),
          max_length: z
            .number()
            .int()
            .min(0)
            .max(2 ** 32 - 1),
        }),
        auth: z.object({ required: z.boolean(), methods: z.array(z.string()) }),
      })
      .catchall(z.unknown())
      .superRefine((value, context) => {
        for (const key of Object.keys(value)) {
          if (
            ![
              "afi_version",
              "provider",
              "provider_version",
              "profile",
              "capabilities",
              "search",
              "path",
              "auth",
            ].includes(key) &&
            !key.startsWith("x-")
          ) {
            context.addIssue({ code: "custom", message: `unknown non-vendor field ${key}` });
          }
        }
      })
      .parse(JSON.parse(sh(`cat ${quote(join(mnt, ".afi/manifest.json"))}`).stdout));
    expect(manifest.profile).toBe(2);
    // capabilities must cover the profile; profile 2 requires exact search.
    expect(manifest.capabilities).toEqual(expect.arrayContaining(["stat", "list", "read", "search"]));
    expect(manifest.search.modes).toContain("exact");
    expect(manifest["x-forage-stamp"]).toBe(catalog.stamp());
    expect(manifest["x-forage-operations"]).toBe(catalog.size);
  });

  test("/.search/<query>/ lists ranked results in rank order under plain ls, each reading as the .d.ts", () => {
    const directory = join(mnt, ".search", "send an email");
    const names = sh(`ls ${quote(directory)}`)
      .stdout.trim()
      .split("\n")
      .filter((name) => /^\d/.test(name));
    const ranked = catalog.search("send an email", { limit: 50 }).results.map((result) => result.path);
    expect(names.map((name) => name.replace(/^\d+-/, "").replace(/\.d\.ts$/, ""))).toEqual(ranked);
    expect(sh(`cat ${quote(join(directory, names[0]!))}`).stdout).toBe(catalog.describe(ranked[0]!).typescript);
    expect(JSON.parse(sh(`cat ${quote(join(directory, "results.json"))}`).stdout).results[0].path).toBe(ranked[0]);
  });

  test("the README's first recipe, run as written at the root, prints each query's ranked digest", () => {
    const readme = sh(`cat ${quote(join(mnt, "README.md"))}`).stdout;
    const recipe = /`(for q in [^`]+)`/.exec(readme)?.[1];
    expect(recipe).toBeDefined();
    const out = sh(`cd ${quote(mnt)} && ${recipe}`);
    expect(out.status).toBe(0);
    expect(out.stdout).toContain('# search "send email": ');
    expect(out.stdout).toContain('# search "create issue": ');
    const best = catalog.search("send email", { limit: 1 }).results[0]!;
    expect(out.stdout).toContain(`\n${best.path}({ `);
    // docs/mount.md, "The README" and "Search": what the first calls cost stays small through the mount too.
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(2 * 1024);
    const digest = sh(`cat ${quote(join(mnt, ".search/send email/@index.txt"))}`).stdout;
    expect(Buffer.byteLength(digest)).toBeLessThanOrEqual(1024);
    expect(out.stdout.startsWith(digest)).toBe(true);
  });

  test("/.afi/search round trip: exact, regex and a bad regex", () => {
    const control = quote(join(mnt, ".afi/search"));
    const exact = sh(`printf '%s' '{"query":"SIGKILL"}' > ${control} && cat ${control}`);
    expect(exact.status).toBe(0);
    expect(exact.stdout.endsWith("\n\n")).toBe(true);
    const matches = exact.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(matches.length).toBeGreaterThan(0);
    for (const match of matches) expect(match.text).toContain("SIGKILL");
    const regex = sh(
      `printf '%s' '{"query":{"regex":"maxItems [0-9]+","flags":"i"},"opts":{"path":"/mail","limit":3}}' > ${control} && cat ${control}`,
    );
    const regexMatches = regex.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(regexMatches).toHaveLength(3);
    for (const match of regexMatches) expect(match.path.startsWith("/mail/")).toBe(true);
    // One open for both: the answer belongs to that handle.
    const sameHandle = sh(`exec 3<>${control}; printf '%s' '{"query":"detect_language"}' >&3; cat <&3`);
    expect(sameHandle.stdout).toContain("detect_language");
    // A request left by one shell session is not handed to another (setsid starts a new one).
    const left = sh(
      `printf '%s' '{"query":"SIGKILL"}' > ${control} && setsid cat ${control} | wc -c && cat ${control} | wc -l`,
    );
    expect(left.stdout.trim().split("\n")).toEqual(["0", String(matches.length + 1)]);
    const bad = sh(`printf '%s' '{"query":{"regex":"(unclosed"}}' > ${control} && cat ${control}`);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/Invalid argument/);
  });

  test("tsc -p <mount> reports zero errors", () => {
    const result = sh(
      `${quote(process.execPath)} ${quote(join(process.cwd(), "node_modules/typescript/bin/tsc"))} -p ${quote(mnt)}`,
    );
    expect(result.stdout + result.stderr).toBe("");
    expect(result.status).toBe(0);
  });

  test("errnos: missing is ENOENT, writes are EROFS, .. never leaves the root", () => {
    expect(sh(`cat ${quote(join(mnt, "nope.d.ts"))}`).stderr).toMatch(/No such file or directory/);
    expect(sh(`cat ${quote(join(mnt, "computers/local/files/nope.d.ts"))}`).stderr).toMatch(
      /No such file or directory/,
    );
    expect(sh(`touch ${quote(join(mnt, "new-file"))}`).stderr).toMatch(/Read-only file system/);
    expect(sh(`echo x > ${quote(join(mnt, "README.md"))}`).stderr).toMatch(/Read-only file system|Permission denied/);
    expect(sh(`mkdir ${quote(join(mnt, "computers/new"))}`).stderr).toMatch(/Read-only file system/);
    expect(sh(`rm -f ${quote(join(mnt, "README.md"))}`).stderr).toMatch(/Read-only file system/);
    expect(sh(`mv ${quote(join(mnt, "README.md"))} ${quote(join(mnt, "R.md"))}`).stderr).toMatch(
      /Read-only file system/,
    );
    expect(sh(`cd ${quote(join(mnt, "computers/local"))} && cd ../../.. && pwd`).stdout.trim()).toBe(join(mnt, ".."));
    expect(sh(`ls ${quote(join(mnt, ".search", "..", ".."))}`).status).toBe(0);
  });

  test("16 concurrent readers finish with no error", () => {
    const readers = Array.from({ length: 16 }, (_, index) =>
      index % 2 === 0
        ? `(find ${quote(mnt)} -path '*/.afi/search' -prune -o -type f -print0 | xargs -0 cat > /dev/null)`
        : `(grep -r -c maxLength ${quote(mnt)} > /dev/null)`,
    );
    const result = sh(
      `${readers.map((reader) => `${reader} &`).join(" ")} fail=0; for job in $(jobs -p); do wait $job || fail=1; done; exit $fail`,
    );
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });
});

describe.skipIf(skip !== undefined)("mount options", () => {
  afterAll(stopAllDaemons);

  test("subtree= mounts one namespace as the root", async () => {
    const mnt = freshMountpoint("subtree");
    try {
      await startDaemon(["--example", "-o", "ro,subtree=apps.bazaar"], mnt);
      expect(
        sh(`ls ${quote(mnt)}`)
          .stdout.trim()
          .split("\n"),
      ).toEqual([
        "@index.txt",
        "README.md",
        "cart",
        "catalog",
        "index.d.ts",
        "package.json",
        "tsconfig.json",
        "windows",
      ]);
      expect(sh(`cat ${quote(join(mnt, "windows/open.d.ts"))}`).stdout).toBe(
        catalog.describe("apps.bazaar.windows.open").typescript,
      );
      expect(sh(`ls ${quote(join(mnt, "computers"))}`).stderr).toMatch(/No such file or directory/);
    } finally {
      await stopAllDaemons();
      removeMountpoint(mnt);
    }
  });

  test("bound= cloaks unbound operations: absent from listings and search, ENOENT by name", async () => {
    const mnt = freshMountpoint("bound");
    try {
      await startDaemon(["--example", "-o", `bound=${join(process.cwd(), "test/fixtures/sources/bound.txt")}`], mnt);
      const guest = createForage(catalog, { bound: ["mail.**", "computers.local.files.read"] });
      expect(
        sh(
          `cd ${quote(mnt)} && find . -name '*.d.ts' ! -name '${NAMESPACE_FILE}' ! -path ./index.d.ts | wc -l`,
        ).stdout.trim(),
      ).toBe(String(guest.list().total));
      expect(sh(`cat ${quote(join(mnt, "computers/local/files/write.d.ts"))}`).stderr).toMatch(
        /No such file or directory/,
      );
      expect(sh(`cat ${quote(join(mnt, "apps/bazaar/cart/checkout.d.ts"))}`).stderr).toMatch(
        /No such file or directory/,
      );
      expect(sh(`cat ${quote(join(mnt, "computers/local/files/read.d.ts"))}`).status).toBe(0);
      const searched = sh(`cat ${quote(join(mnt, ".search/buy the cart/results.json"))}`).stdout;
      expect(searched).not.toContain("apps.bazaar");
      expect(JSON.parse(sh(`cat ${quote(join(mnt, ".afi/manifest.json"))}`).stdout)["x-forage-operations"]).toBe(
        guest.list().total,
      );
      expect(sh(`grep -r bazaar ${quote(mnt)}`).stdout).toBe("");
    } finally {
      await stopAllDaemons();
      removeMountpoint(mnt);
    }
  });

  test("an OpenAPI spec and a catalog file mount together, each under its own namespace", async () => {
    const mnt = freshMountpoint("specs");
    try {
      const spec = join(import.meta.dirname, "fixtures", "openapi-examples", "v3.1", "tictactoe.yaml");
      await startDaemon([`ttt=${spec}`, `stock=${join(process.cwd(), "test/fixtures/sources/catalog.yaml")}`], mnt);
      expect(
        sh(`ls ${quote(join(mnt, "ttt"))}`)
          .stdout.trim()
          .split("\n"),
      ).toEqual(expect.arrayContaining(["get_board.d.ts", "put_square.json"]));
      expect(sh(`cat ${quote(join(mnt, "stock/inventory/items/get.d.ts"))}`).stdout).toContain(
        "stock$inventory$items$get_Input",
      );
      expect(sh(`ls ${quote(join(mnt, ".search", "mark a square"))}`).stdout).toMatch(/^01-ttt\.put_square\.d\.ts$/m);
    } finally {
      await stopAllDaemons();
      removeMountpoint(mnt);
    }
  });

  test("-o ro mounts read-only in the kernel: AFI profile 1, no control file, everything else as before", async () => {
    const mnt = freshMountpoint("ro");
    try {
      const daemon = await startDaemon(["--example", "-o", "ro"], mnt);
      expect(daemon.output()).toContain("(read-only, without the /.afi/search control file;");
      const line = mountinfoLine(mnt);
      expect(line!.split(" ")[5]!.split(",")).toContain("ro");
      // Nothing can write a control file on a read-only mount, so AFI search is not offered (afi.md, "Manifest").
      const manifest = JSON.parse(sh(`cat ${quote(join(mnt, ".afi/manifest.json"))}`).stdout);
      expect(manifest.profile).toBe(1);
      expect(manifest.capabilities).toEqual(["stat", "list", "read"]);
      expect(manifest.search.modes).toEqual([]);
      expect(
        sh(`ls -f ${quote(join(mnt, ".afi"))}`)
          .stdout.trim()
          .split("\n"),
      ).toEqual([".", "..", "manifest.json"]);
      expect(sh(`echo '{"query":"x"}' > ${quote(join(mnt, ".afi/search"))}`).stderr).toMatch(/Read-only file system/);
      expect(sh(`cat ${quote(join(mnt, "README.md"))}`).stdout).toContain("no `.afi/search` (a read-only mount)");
      expect(sh(`cat ${quote(join(mnt, "computers/local/files/read.d.ts"))}`).stdout).toBe(
        catalog.describe("computers.local.files.read").typescript,
      );
      expect(sh(`ls ${quote(join(mnt, ".search", "send an email"))}`).stdout).toMatch(
        /^01-mail\.messages\.send\.d\.ts$/m,
      );
      expect(sh(`grep -rl 'reads the local disk' ${quote(mnt)}`).status).toBe(0);
    } finally {
      await stopAllDaemons();
      removeMountpoint(mnt);
    }
  });

  test("a bad mountpoint or option gives one clear line, a non-zero exit and no mount", () => {
    const cli = `${quote(process.execPath)} ${quote(join(process.cwd(), "dist/cli/main.js"))}`;
    const missing = sh(`${cli} mount --example /tmp/forage-no-such-dir-${process.pid}`);
    expect(missing.status).not.toBe(0);
    expect(missing.stderr.trim().split("\n")).toHaveLength(1);
    expect(missing.stderr).toMatch(/^forage: /);
    const option = sh(`${cli} mount --example -o colour=blue /tmp`);
    expect(option.status).toBe(2);
    expect(option.stderr).toMatch(/unknown or incomplete mount option "colour=blue"/);
    expect(readFileSync("/proc/self/mountinfo", "utf8")).not.toContain("forage-no-such-dir");
  });
});
