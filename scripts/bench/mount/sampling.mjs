// The samples: cold, warm and 3rd-run times of every workload on every system (a fresh mount
// per cold sample), then one more mount per FUSE system for memory and a content check.
import { formatMs } from "../stats.mjs";
import { coldAfter, log, reps, sleep, systemNames } from "./config.mjs";
import { memoryOf, runTimed } from "./processes.mjs";
import { coolDown, startDaemon, stopDaemon } from "./systems.mjs";
import { expectedOutput, workloadsFor } from "./workloads.mjs";

const mb = (kb) => (kb / 1024).toFixed(0);

/**
 * Every workload on every system, `reps` cold mounts each: { workloads, samples, usable, tableIn,
 * mismatches }. A cold sample starts once forage's node table is in (startDaemon), or its search is
 * prepared as well with BENCH_COLD_AFTER=search; the memory and content mount waits for the table only.
 */
export async function benchSize(size) {
  const workloads = workloadsFor(size);
  const samples = {};
  const usable = {};
  const tableIn = {};
  const outputs = {};
  for (const system of systemNames) {
    samples[system] = Object.fromEntries(workloads.map((w) => [w.name, { cold: [], warm: [], third: [] }]));
    usable[system] = [];
    tableIn[system] = [];
    outputs[system] = Object.fromEntries(workloads.map((w) => [w.name, new Set()]));
  }
  for (let rep = 0; rep < reps; rep++) {
    for (const [index, workload] of workloads.entries()) {
      // Rotate the order so that no system always runs right after another.
      const shift = (rep + index) % systemNames.length;
      const order = [...systemNames.slice(shift), ...systemNames.slice(0, shift)];
      for (const system of order) {
        let daemon;
        let root = size.tree;
        if (system === "tmpfs") coolDown();
        else {
          daemon = await startDaemon(system, size, [], coldAfter);
          usable[system].push(daemon.usableMs);
          tableIn[system].push(daemon.tableInMs);
          root = daemon.root;
        }
        try {
          const runs = [];
          for (let run = 0; run < 3; run++) runs.push(await runTimed(workload.command, root));
          const bucket = samples[system][workload.name];
          bucket.cold.push(runs[0].ms);
          bucket.warm.push(runs[1].ms);
          bucket.third.push(runs[2].ms);
          for (const run of runs) outputs[system][workload.name].add(run.stdout);
        } finally {
          if (daemon) await stopDaemon(daemon);
        }
      }
      log(
        `${size.operations} ops, rep ${rep + 1}/${reps}, ${workload.name}: ${systemNames.map((s) => `${s} ${formatMs(samples[s][workload.name].cold.at(-1))}/${formatMs(samples[s][workload.name].warm.at(-1))} ms`).join(", ")}`,
      );
    }
  }
  const mismatches = [];
  if (outputs.tmpfs) {
    for (const workload of workloads) {
      const reference = [...outputs.tmpfs[workload.name]];
      if (reference.length !== 1)
        mismatches.push(`tmpfs gave several outputs for ${workload.name}: ${reference.join(" | ")}`);
      for (const system of systemNames) {
        const got = [...outputs[system][workload.name]];
        const want = expectedOutput(system, workload, reference[0]);
        if (got.length !== 1 || got[0] !== want)
          mismatches.push(`${system} ${workload.name}: output ${got.join(" | ")}, expected ${want}`);
      }
    }
  }
  return {
    workloads: workloads.map((w) => ({ name: w.name, command: w.command })),
    samples,
    usable,
    tableIn,
    mismatches,
  };
}

/** One more mount per FUSE system: RSS idle and after every workload (cold, then warm), and a content check. */
export async function memoryAndContent(size) {
  // README.md and .afi/manifest.json say what each transport offers (a mount has ranked search and,
  // read-write, the control file; the export has neither), so they differ by design: every other
  // file must be byte-identical to what `forage export` wrote.
  const checksum =
    "find . -type f ! -path ./.afi/search ! -path ./README.md ! -path ./.afi/manifest.json -print0 | LC_ALL=C sort -z | xargs -0 cat | md5sum; find . -type f ! -path ./.afi/search | LC_ALL=C sort | md5sum";
  const reference = (await runTimed(checksum, size.tree)).stdout;
  const result = {};
  for (const system of systemNames.filter((s) => s !== "tmpfs")) {
    const daemon = await startDaemon(system, size);
    try {
      await sleep(200);
      const idle = memoryOf(daemon.child.pid);
      for (const workload of workloadsFor(size)) {
        await runTimed(workload.command, daemon.root);
        await runTimed(workload.command, daemon.root);
      }
      const after = memoryOf(daemon.child.pid);
      const content = (await runTimed(checksum, daemon.root)).stdout;
      result[system] = { idle, after, sameContent: content === reference };
      log(
        `${size.operations} ops, ${system}: RSS idle ${mb(idle.rssKb)} MB, after workloads ${mb(after.rssKb)} MB (peak ${mb(after.hwmKb)} MB); content ${content === reference ? "identical to the export" : "DIFFERS from the export"}`,
      );
    } finally {
      await stopDaemon(daemon);
    }
  }
  return result;
}
