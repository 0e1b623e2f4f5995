// The markdown report: per size, cold, warm and 3rd-run tables with ratios against C and tmpfs,
// time to a usable mount, daemon memory, noise, and the workload commands.
import { formatMs, formatRatio, max, median, min } from "../stats.mjs";
import { coldAfter, pinnedCpus, reps, statScript, systemNames } from "./config.mjs";
import { coldness, SYSTEMS } from "./systems.mjs";

const mb = (kb) => (kb / 1024).toFixed(0);

/** The report for a run's environment and per-size results, as markdown. */
export function report(environment, results) {
  const lines = [];
  const out = (line = "") => lines.push(line);
  const has = (system) => systemNames.includes(system);
  out(`Run: \`${environment.command}\` (${environment.date}).`);
  out(
    `Machine: ${environment.cpu}, ${environment.cpus} CPUs, Linux ${environment.kernel}, Node ${process.version}; load average ${environment.loadBefore} before, ${environment.loadAfter} after; ` +
      `the machine's CPUs were ${environment.machineBusyPercent.toFixed(0)}% busy over the run (/proc/stat, this run included). ` +
      `${pinnedCpus ? `Every daemon and workload pinned to CPU ${pinnedCpus} (taskset -c). ` : "No CPU pinning. "}` +
      `${reps} cold mount${reps === 1 ? "" : "s"} per workload, system and size; medians. tmpfs "cold": ${coldness.dropCachesPermitted ? "caches dropped before each run (echo 3 > /proc/sys/vm/drop_caches)" : "drop_caches not permitted, so not cold"}.`,
  );
  if (environment.buildChanged)
    out("**The addon or dist/ was rebuilt (by someone else) during this run**: the figures may mix two builds.");
  for (const { size, bench, memory, reload } of results) {
    const m = (system, workload, phase) => (has(system) ? median(bench.samples[system][workload][phase]) : undefined);
    out();
    out(
      `#### ${size.real === undefined ? "" : `${size.real}, real: `}${size.operations.toLocaleString("en-US")} operations: ${size.files.toLocaleString("en-US")} files, ${size.directories.toLocaleString("en-US")} directories, ${(size.bytes / 1e6).toFixed(1)} MB`,
    );
    out();
    const shown = ["tmpfs", "cfs", "cfs-ro", "forage", "forage-ro"].filter(has);
    const ratio = (phase, name, a, b) => formatRatio(m(a, name, phase), m(b, name, phase));
    const target = (phase, name, a, b, limit) => {
      const [x, y] = [m(a, name, phase), m(b, name, phase)];
      return x === undefined || y === undefined ? "–" : `${formatRatio(x, y)} ${x / y <= limit ? "✓" : "✗"}`;
    };
    const tables = [
      [
        "cold",
        `Cold (fresh mount${coldAfter === "search" ? ", each forage sample started once search was prepared as well" : ""}; ms, median):`,
        [
          ["forage / C (target ≤ 1.10×)", (name) => target("cold", name, "forage", "cfs", 1.1)],
          ["forage ro / C ro (target ≤ 1.10×)", (name) => target("cold", name, "forage-ro", "cfs-ro", 1.1)],
          ["forage / tmpfs", (name) => ratio("cold", name, "forage", "tmpfs")],
          ["C / tmpfs", (name) => ratio("cold", name, "cfs", "tmpfs")],
        ],
      ],
      ...[
        ["warm", "Warm (the same command immediately repeated, on the same mount: 2nd run; ms, median):"],
        ["third", "3rd run (repeated once more; ms, median):"],
      ].map(([phase, title]) => [
        phase,
        title,
        [
          ["forage / tmpfs (target ≤ 1.25×)", (name) => target(phase, name, "forage", "tmpfs", 1.25)],
          ["forage ro / tmpfs (target ≤ 1.25×)", (name) => target(phase, name, "forage-ro", "tmpfs", 1.25)],
          ["forage / C", (name) => ratio(phase, name, "forage", "cfs")],
          ["C / tmpfs", (name) => ratio(phase, name, "cfs", "tmpfs")],
          ["C ro / tmpfs", (name) => ratio(phase, name, "cfs-ro", "tmpfs")],
        ],
      ]),
    ];
    for (const [phase, title, ratios] of tables) {
      if (phase !== "cold") out();
      out(title);
      out();
      out(
        `| workload | ${shown.map((system) => SYSTEMS[system].label).join(" | ")} | ${ratios.map(([label]) => label).join(" | ")} |`,
      );
      out(`|---|${[...shown, ...ratios].map(() => "---:").join("|")}|`);
      for (const { name } of bench.workloads) {
        out(
          `| ${name} | ${shown.map((system) => formatMs(m(system, name, phase))).join(" | ")} | ${ratios.map(([, cell]) => cell(name)).join(" | ")} |`,
        );
      }
    }
    out();
    out(
      "Time from daemon start to the first successful stat of /README.md, and to forage's node table being in (its trace line; C loads its tree before it mounts) " +
        "(ms; median, min–max over every cold mount), and daemon memory (VmRSS idle, VmRSS and VmHWM after every workload ran cold then warm on one mount):",
    );
    out();
    out(
      "| daemon | mount to usable | node table in | samples | RSS idle (MB) | RSS after workloads (MB) | peak RSS, VmHWM (MB) | content = export |",
    );
    out("|---|---:|---:|---:|---:|---:|---:|---|");
    const spread = (times) => `${formatMs(median(times))} (${formatMs(min(times))}–${formatMs(max(times))})`;
    for (const system of systemNames.filter((s) => s !== "tmpfs")) {
      const times = bench.usable[system];
      const mem = memory[system];
      out(
        `| ${SYSTEMS[system].label} | ${spread(times)} | ${spread(bench.tableIn[system])} | ${times.length} | ${mb(mem.idle.rssKb)} | ${mb(mem.after.rssKb)} | ${mb(mem.after.hwmKb)} | ${mem.sameContent ? "yes" : "NO"} |`,
      );
    }
    if (reload) {
      out();
      out(
        `\`forage mount --watch\` reloads (${reload.samples.length}, each replacing the source with the other of two revisions that differ by one operation): ` +
          `the reload took ${spread(reload.samples.map((r) => r.reloadMs))} ms, of which loading the revision (sources, catalog, tree) ${spread(reload.samples.map((r) => r.loadMs))} ms; ` +
          `the longest event-loop stall during it (monitorEventLoopDelay in the daemon) was ${spread(reload.samples.map((r) => r.stallMs))} ms, ` +
          `${spread(reload.samples.map((r) => r.swapStallMs))} ms during the swap alone (building the next table between requests, then installing it in ${spread(reload.samples.map((r) => r.installMs))} ms); ` +
          `the longest garbage collection pause (perf_hooks) was ${spread(reload.samples.map((r) => r.gcPauseMs))} ms; ` +
          `the slowest stat() of a new name by a reader during the reload took ${spread(reload.samples.map((r) => r.slowestStatMs))} ms.`,
      );
    }
    out();
    const spreads = [];
    for (const system of shown)
      for (const { name } of bench.workloads)
        for (const phase of ["cold", "warm", "third"]) {
          const values = bench.samples[system][name][phase];
          spreads.push({
            spread: max(values) / min(values),
            where: `${SYSTEMS[system].label}, ${name}, ${phase === "third" ? "3rd run" : phase}`,
          });
        }
    spreads.sort((a, b) => a.spread - b.spread);
    const worst = spreads.at(-1);
    out(
      `Noise: max/min of the ${reps} samples behind a cell is ${median(spreads.map((s) => s.spread)).toFixed(2)} for the median cell, ${worst.spread.toFixed(2)} at worst (${worst.where}). \`forage export\` of this tree to tmpfs took ${formatMs(size.exportMs)} ms.`,
    );
    if (bench.mismatches.length > 0) {
      out();
      out(`Output mismatches: ${bench.mismatches.join("; ")}`);
    }
  }
  out();
  out("Workloads (run by `sh -c` in the tree's root):");
  out();
  for (const workload of results[0].bench.workloads) {
    const command = workload.command
      .replace(statScript, "scripts/bench/mount/stat-files.pl")
      .replace(/\S*\/files-\d+/, "<list of the exported files>");
    out(`- ${workload.name}: \`${command}\``);
  }
  return lines.join("\n");
}
