#!/usr/bin/env node
/**
 * Makes a fresh clone ready to run: `npm start` and `npm test` call this first.
 *
 *   1. FUSE packages (fuse3, libfuse3-dev, pkg-config): installed with apt-get
 *      when running as root, otherwise the exact command is printed.
 *   2. node_modules: `npm ci` when missing or older than package-lock.json.
 *   3. The FUSE addon: built when missing or older than native/ sources.
 *   4. dist/: what `npm run build` does (tsc, then scripts/bundle-dist.mjs) when missing or
 *      older than src/, run here without npm.
 *
 * Each step is skipped when already done, so a second run takes well under a
 * second. Node built-ins only: on a fresh clone nothing else is installed yet.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { addonPath, buildNativeAddon, hasLibfuse3Headers, nativeDir, packageRoot } from "./build-native.mjs";

const FUSE_PACKAGES = ["fuse3", "libfuse3-dev", "pkg-config"];
const APT_INSTALL = `DEBIAN_FRONTEND=noninteractive apt-get install -y ${FUSE_PACKAGES.join(" ")}`;
const distStamp = join(packageRoot, "dist", ".build-stamp");
const started = Date.now();

function say(line) {
  console.log(`[bootstrap] ${line}`);
}

function onPath(command) {
  return (process.env.PATH ?? "").split(delimiter).some((dir) => dir && existsSync(join(dir, command)));
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: packageRoot, stdio: "inherit", ...options });
  return !result.error && result.status === 0;
}

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/** The newest mtime among files under dir whose name passes keep. */
function newestIn(dir, keep = () => true) {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestIn(path, keep));
    else if (keep(entry.name)) newest = Math.max(newest, mtime(path));
  }
  return newest;
}

function ensureFusePackages() {
  if (onPath("fusermount3") && hasLibfuse3Headers()) return;
  const isRoot = process.getuid?.() === 0;
  if (!isRoot || !onPath("apt-get")) {
    say(`FUSE packages missing; forage mount needs them. Run: sudo apt-get update && sudo ${APT_INSTALL}`);
    return;
  }
  say(`installing ${FUSE_PACKAGES.join(", ")} with apt-get`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  if (!run("apt-get", ["update"], { env })) say("apt-get update failed; trying the install anyway");
  if (!run("apt-get", ["install", "-y", ...FUSE_PACKAGES], { env }))
    say(`apt-get install failed; run it yourself: ${APT_INSTALL}`);
}

function ensureNodeModules() {
  const lock = join(packageRoot, "package-lock.json");
  const installed = join(packageRoot, "node_modules", ".package-lock.json");
  if (existsSync(installed) && mtime(installed) >= mtime(lock)) return;
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const args = existsSync(lock) ? ["ci"] : ["install"];
  say(`npm ${args[0]}`);
  if (!run(npm, args)) {
    say(`npm ${args[0]} failed`);
    process.exit(1);
  }
}

function ensureNativeAddon() {
  const sources = newestIn(nativeDir, (name) => /\.(c|h|gyp)$/.test(name) && !name.startsWith("."));
  const built = mtime(addonPath);
  if (built && built >= sources) return;
  if (!hasLibfuse3Headers()) {
    say("FUSE addon not built: libfuse3 headers are missing (see above); the library works, forage mount does not");
    return;
  }
  say("building the FUSE addon");
  const { ok, reason } = buildNativeAddon({ quiet: true });
  if (!ok) say(`FUSE addon build failed; forage mount is unavailable: ${reason}`);
}

function ensureDist() {
  const inputs = Math.max(
    newestIn(join(packageRoot, "src")),
    mtime(join(packageRoot, "tsconfig.json")),
    mtime(join(packageRoot, "tsconfig.build.json")),
    mtime(join(packageRoot, "package.json")),
    mtime(join(packageRoot, "scripts", "bundle-dist.mjs")),
  );
  if (mtime(distStamp) >= inputs && inputs > 0) return;
  say("building TypeScript (tsc -p tsconfig.build.json, then scripts/bundle-dist.mjs)");
  const tsc = join(packageRoot, "node_modules", "typescript", "bin", "tsc");
  if (!run(process.execPath, [tsc, "-p", "tsconfig.build.json"])) {
    say("TypeScript build failed");
    process.exit(1);
  }
  if (!run(process.execPath, [join(packageRoot, "scripts", "bundle-dist.mjs")])) {
    say("bundling dist/ failed");
    process.exit(1);
  }
  writeFileSync(distStamp, `${new Date().toISOString()}\n`);
}

ensureFusePackages();
ensureNodeModules();
ensureNativeAddon();
ensureDist();
say(`ready (${((Date.now() - started) / 1000).toFixed(2)} s)`);
