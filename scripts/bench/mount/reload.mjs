// --watch reloads: a forage mount (read-write, --watch) of a copy of the source, which is
// replaced again and again by the other of two revisions (N operations, then N - 1). Each sample
// reads the daemon's trace lines (FORAGE_MOUNT_TRACE: the reload's time, the revision's load time,
// the longest event-loop stall overall and during the swap alone, the synchronous install,
// the longest GC pause) and, from a reader's side, the
// slowest stat() of a new name while the reload ran.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { formatMs } from "../stats.mjs";
import { log, MOUNT_TIMEOUT_MS, pinned, sleep, tmpInProject } from "./config.mjs";
import { startDaemon, stopDaemon } from "./systems.mjs";

const RELOADS = 3;
const here = new URL(".", import.meta.url).pathname;

/** The source text of `operations` operations of the scaled example. */
const sourceText = (operations) =>
  `// Written by scripts/bench/mount/reload.mjs.\nimport { scaledExampleOperations } from "../../../../dist/index.js";\nexport const operations = scaledExampleOperations(${operations});\n`;

/** Resolves to the slowest stat() of a new name in `root` over `seconds`, in ms (reload-stat.pl). */
function slowestStat(root, seconds) {
  return new Promise((resolve, reject) => {
    let stdout = "";
    const child = spawn(...pinned("perl", [join(here, "reload-stat.pl"), root, String(seconds)]), {
      stdio: ["ignore", "pipe", "inherit"],
    });
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.on("error", reject);
    child.on("close", () => resolve(Number(stdout.trim())));
  });
}

/** RELOADS reloads of a --watch mount at this size: [{ reloadMs, loadMs, stallMs, swapStallMs, gcPauseMs, installMs, slowestStatMs }]. */
export async function reloadStalls(size) {
  const source = join(tmpInProject, `reload-${size.operations}.mjs`);
  writeFileSync(source, sourceText(size.operations));
  const daemon = await startDaemon("forage", { ...size, source }, ["--watch"]);
  const samples = [];
  try {
    for (let reload = 1; reload <= RELOADS; reload++) {
      const seen = daemon.output().length;
      // Long enough to cover the reload: about twice a cold start.
      const reader = slowestStat(daemon.root, Math.max(2, (2 * daemon.tableInMs) / 1000));
      await sleep(100);
      writeFileSync(source, sourceText(reload % 2 === 1 ? size.operations - 1 : size.operations));
      const started = performance.now();
      let lines;
      for (;;) {
        lines = daemon.output().slice(seen);
        if (/forage: trace: reload in/.test(lines)) break;
        if (/reload failed/.test(lines)) throw new Error(`reload failed: ${lines}`);
        if (performance.now() - started > MOUNT_TIMEOUT_MS) throw new Error(`no reload within ${MOUNT_TIMEOUT_MS} ms`);
        await sleep(5);
      }
      const number = (pattern) => Number(pattern.exec(lines)?.[1]);
      const sample = {
        reloadMs: number(/reload in (\d+) ms/),
        loadMs: number(/the revision loaded in (\d+)/),
        stallMs: number(/reload in .*longest event-loop stall ([\d.]+) ms/),
        swapStallMs: number(/swap in .*longest event-loop stall ([\d.]+) ms/),
        gcPauseMs: number(/reload in .*longest GC pause ([\d.]+) ms/),
        installMs: number(/next table installed in ([\d.]+) ms/),
        slowestStatMs: await reader,
      };
      samples.push(sample);
      log(
        `${size.operations} ops, reload ${reload}/${RELOADS}: ${formatMs(sample.reloadMs)} ms (load ${formatMs(sample.loadMs)} ms), longest stall ${formatMs(sample.stallMs)} ms (swap ${formatMs(sample.swapStallMs)} ms, its synchronous install ${formatMs(sample.installMs)} ms), longest GC pause ${formatMs(sample.gcPauseMs)} ms, slowest reader stat ${formatMs(sample.slowestStatMs)} ms`,
      );
    }
  } finally {
    await stopDaemon(daemon);
  }
  return { samples };
}
