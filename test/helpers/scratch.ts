import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach } from "vitest";

/**
 * A maker of scratch folders under /tmp, `PREFIX-[LABEL-]XXXXXX`, each removed after the test that
 * made it. Call it at a test file's top level: it registers that file's afterEach.
 */
export function scratchDirectories(prefix: string): (label?: string) => string {
  const made: string[] = [];
  afterEach(() => {
    for (const directory of made.splice(0)) rmSync(directory, { recursive: true, force: true });
  });
  return (label) => {
    const directory = mkdtempSync(join("/tmp", `${prefix}-${label === undefined ? "" : `${label}-`}`));
    made.push(directory);
    return directory;
  };
}

/** The pids of other processes whose command line holds `marker`: a server forage started and did not end. */
export function processesWith(marker: string): string[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(marker);
      } catch {
        return false;
      }
    });
}
