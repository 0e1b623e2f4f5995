// The daemon's life: --watch reloads, a crashing source, export
// (docs/native.md, "Mounting, unmounting and failures" and "Reloads: `swap(tree)` and invalidation").
// Signals, kill -9 recovery and unmounts from outside are the library's, tested in fuse-native.test.ts.
// No test may leave a mount behind, even when it fails.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import {
  freshMountpoint,
  isMounted,
  mountSkipReason,
  quote,
  removeMountpoint,
  sh,
  startDaemon,
  stopAllDaemons,
} from "./helpers/mount-daemon.js";

const skip = mountSkipReason();
if (skip !== undefined) console.log(`mount lifecycle tests skipped: ${skip}`);
const mountpoints: string[] = [];
function mountpoint(label: string): string {
  const path = freshMountpoint(label);
  mountpoints.push(path);
  return path;
}

afterEach(stopAllDaemons);
afterAll(() => {
  for (const path of mountpoints) removeMountpoint(path);
});

/** A source module under test/ (so it resolves zod and dist/) whose operations a test rewrites. */
function writeSource(directory: string, operations: { path: string; description: string }[]): void {
  const body = operations.map(
    (operation) =>
      `{ path: ${JSON.stringify(operation.path)}, description: ${JSON.stringify(operation.description)}, input: z.object({ id: z.string().max(64) }) }`,
  );
  writeFileSync(
    join(directory, "source.mjs"),
    `import { z } from "zod";\nexport const operations = [${body.join(", ")}];\n`,
  );
}

describe.skipIf(skip !== undefined)("daemon lifecycle", () => {
  test("--watch swaps in a new revision that readers see whole; a broken edit keeps the old one", async () => {
    const directory = mkdtempSync(join(process.cwd(), "test", ".tmp-watch-"));
    try {
      writeSource(directory, [
        { path: "notes.pages.create", description: "Create a page." },
        { path: "notes.pages.find", description: "Find pages." },
      ]);
      const mnt = mountpoint("watch");
      const daemon = await startDaemon(["--watch", join(directory, "source.mjs")], mnt);
      const before = JSON.parse(sh(`cat ${quote(join(mnt, ".afi/manifest.json"))}`).stdout);
      expect(
        sh(`ls ${quote(join(mnt, "notes/pages"))}`)
          .stdout.trim()
          .split("\n"),
      ).toContain("find.d.ts");
      writeSource(directory, [
        { path: "notes.pages.create", description: "Create a page." },
        { path: "notes.pages.archive", description: "Archive a page." },
      ]);
      await daemon.waitFor(/reloaded 2 operations/);
      const after = JSON.parse(sh(`cat ${quote(join(mnt, ".afi/manifest.json"))}`).stdout);
      expect(after["x-forage-stamp"]).not.toBe(before["x-forage-stamp"]);
      const names = sh(`ls ${quote(join(mnt, "notes/pages"))}`)
        .stdout.trim()
        .split("\n");
      expect(names).toContain("archive.d.ts");
      expect(names).not.toContain("find.d.ts");
      expect(sh(`cat ${quote(join(mnt, "notes/pages/find.d.ts"))}`).stderr).toMatch(/No such file or directory/);
      expect(sh(`cat ${quote(join(mnt, "notes/pages/archive.d.ts"))}`).stdout).toContain("Archive a page.");
      // A broken edit keeps serving the last good revision.
      writeFileSync(join(directory, "source.mjs"), "export const operations = [{ path: 'bad' }];\n");
      await daemon.waitFor(/reload failed, still serving/);
      expect(sh(`cat ${quote(join(mnt, "notes/pages/archive.d.ts"))}`).status).toBe(0);
    } finally {
      await stopAllDaemons();
      rmSync(directory, { recursive: true, force: true });
    }
  });

  test("an uncaught error in the daemon still unmounts on exit", async () => {
    const mnt = mountpoint("crash");
    const daemon = await startDaemon([join(process.cwd(), "test/fixtures/sources/crash-after-mount.mjs")], mnt);
    daemon.child.kill("SIGUSR2");
    const { code } = await daemon.exited;
    expect(code).not.toBe(0);
    expect(daemon.output()).toContain("boom");
    expect(isMounted(mnt)).toBe(false);
  });

  test("export writes the same tree to an ordinary directory", () => {
    const target = mkdtempSync(join("/tmp", "forage-export-"));
    try {
      const cli = `${quote(process.execPath)} ${quote(join(process.cwd(), "dist/cli/main.js"))}`;
      const result = sh(`${cli} export --example ${quote(target)}`);
      expect(result.status).toBe(0);
      expect(sh(`cat ${quote(join(target, "computers/local/files/read.d.ts"))}`).stdout).toContain(
        "computers$local$files$read_Input",
      );
      expect(
        sh(
          `${quote(process.execPath)} ${quote(join(process.cwd(), "node_modules/typescript/bin/tsc"))} -p ${quote(target)}`,
        ).status,
      ).toBe(0);
    } finally {
      rmSync(target, { recursive: true, force: true });
    }
  });
});
