// MCP sources mounted through the real CLI and FUSE, read by ls, cat and grep in their own
// processes: docs/sources.md, "MCP tool lists" (the three kinds of source, "How a tool becomes
// an operation", "Watching").
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  type Daemon,
  freshMountpoint,
  mountSkipReason,
  removeMountpoint,
  sh,
  startDaemon,
  stopAllDaemons,
} from "./helpers/mount-daemon.js";

const skip = mountSkipReason();
if (skip !== undefined) console.log(`MCP mount tests skipped: ${skip}`);

const fixtures = join(import.meta.dirname, "fixtures", "mcp");
const everything = join(process.cwd(), "node_modules/.bin/mcp-server-everything");
const marker = `forage-mcp-mount-${process.pid}`;

/** Processes but the daemon whose command line holds `text`: a server the mount started and did not end. */
function processesWith(text: string, daemon: Daemon): string[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry) && Number(entry) !== daemon.child.pid)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(text);
      } catch {
        return false;
      }
    });
}

describe.skipIf(skip !== undefined)("forage mount of a live server and a folder of tools/list files", () => {
  let daemon: Daemon;
  let mnt: string;

  beforeAll(async () => {
    mnt = freshMountpoint("mcp");
    // server-everything ignores arguments after its transport name, so the marker finds it in /proc.
    daemon = await startDaemon([`mcp:${everything} stdio ${marker}`, `saved=${fixtures}`], mnt);
  });
  afterAll(async () => {
    await stopAllDaemons();
    removeMountpoint(mnt);
  });

  test("the server was listed and closed before the mount came up", () => {
    expect(daemon.output()).toMatch(/mounted 38 operations/);
    expect(processesWith(marker, daemon)).toEqual([]);
  });

  test("ls shows each source's namespace and each tool under it", () => {
    expect(sh(`ls '${mnt}'`).stdout.split("\n")).toEqual(expect.arrayContaining(["everything", "saved"]));
    expect(sh(`ls '${mnt}/saved'`).stdout.split("\n")).toEqual(expect.arrayContaining(["everything", "filesystem"]));
    const tools = sh(`ls '${mnt}/everything'`).stdout;
    expect(tools).toContain("get_sum.d.ts");
    expect(tools).toContain("toggle_simulated_logging.json");
    // The tool the compiler refused (a format) is still the server's: shown not validated (docs/mount.md, "Not validated operations").
    expect(tools).toContain("gzip_file_as_resource.d.ts");
    expect(sh(`cat '${mnt}/everything/gzip_file_as_resource.json'`).stdout).toContain('"validated": false');
  });

  test("cat shows the original tool name where the path spells it otherwise, and the annotations, as capability notes", () => {
    const edit = JSON.parse(sh(`cat '${mnt}/saved/filesystem/edit_file.json'`).stdout);
    expect(edit.path).toBe("saved.filesystem.edit_file");
    expect(edit.capabilities).toEqual([
      "may change its environment (MCP readOnlyHint: false)",
      "may destroy or overwrite data (MCP destructiveHint)",
      "not idempotent (MCP idempotentHint: false)",
      "stays within a closed domain (MCP openWorldHint: false)",
    ]);
    expect(sh(`cat '${mnt}/everything/get_sum.d.ts'`).stdout).toMatch(/MCP tool "get-sum"/);
  });

  test("grep finds tools by their hints across the mount", () => {
    const found = sh(`grep -rl 'MCP destructiveHint)' '${mnt}/saved/filesystem' --include='*.json'`).stdout;
    expect(found.split("\n").filter(Boolean).sort()).toEqual(
      ["edit_file", "move_file", "write_file"].map((name) => `${mnt}/saved/filesystem/${name}.json`),
    );
  });
});

describe.skipIf(skip !== undefined)("forage mount --watch of a live server whose tool list changes", () => {
  let daemon: Daemon;
  let mnt: string;
  let work: string;
  let listFile: string;

  beforeAll(async () => {
    mnt = freshMountpoint("mcp-watch");
    work = mkdtempSync(join("/tmp", "forage-mcp-watch-"));
    listFile = join(work, "tools.txt");
    writeFileSync(listFile, "first-tool\n");
    const server = `mcp:${process.execPath} ${join(fixtures, "tools-changing-server.mjs")} ${listFile}`;
    daemon = await startDaemon(["--watch", `live=${server}`], mnt);
  });
  afterAll(async () => {
    await stopAllDaemons();
    removeMountpoint(mnt);
    rmSync(work, { recursive: true, force: true });
  });

  test("the server stays connected; tools/list_changed re-lists it and the new revision is swapped in", async () => {
    expect(sh(`ls '${mnt}/live'`).stdout).toContain("first_tool.d.ts");
    expect(processesWith(listFile, daemon)).toHaveLength(1);
    appendFileSync(listFile, "second.tool\n");
    await daemon.waitFor(/reloaded 2 operations/);
    expect(sh(`ls '${mnt}/live'`).stdout).toContain("second_tool.d.ts");
    expect(JSON.parse(sh(`cat '${mnt}/live/second_tool.json'`).stdout).capabilities).toEqual([
      'MCP tool "second.tool"',
      "read-only (MCP readOnlyHint)",
    ]);
  });

  test("SIGTERM unmounts and ends the server, which would not end by itself", async () => {
    daemon.child.kill("SIGTERM");
    // The daemon unmounts, then dies of the signal (docs/native.md, "Mounting, unmounting and failures").
    expect(await daemon.exited).toMatchObject({ signal: "SIGTERM" });
    expect(daemon.output()).toMatch(/unmounted/);
    expect(processesWith(listFile, daemon)).toEqual([]);
  });
});

describe.skipIf(skip !== undefined)("forage mount --watch of a folder of tools/list files", () => {
  let daemon: Daemon;
  let mnt: string;
  let folder: string;

  beforeAll(async () => {
    mnt = freshMountpoint("mcp-folder");
    folder = mkdtempSync(join("/tmp", "forage-mcp-folder-"));
    writeFileSync(join(folder, "everything.json"), readFileSync(join(fixtures, "everything.json")));
    daemon = await startDaemon(["--watch", folder], mnt);
  });
  afterAll(async () => {
    await stopAllDaemons();
    removeMountpoint(mnt);
    rmSync(folder, { recursive: true, force: true });
  });

  test("a tools/list file added to the folder is mounted under its stem", async () => {
    expect(sh(`ls '${mnt}'`).stdout.trim().split("\n")).toContain("everything");
    writeFileSync(join(folder, "filesystem.json"), readFileSync(join(fixtures, "filesystem.json")));
    await daemon.waitFor(/reloaded 26 operations/);
    expect(sh(`ls '${mnt}/filesystem'`).stdout).toContain("read_text_file.d.ts");
  });
});
