/** The conformance kit's face for `forage afi-check` (docs/afi.md, "Conformance kit"). */
export { TargetError } from "./afi-client.js";
export { jsonReport, textReport } from "./check-report.js";
export { openTarget } from "./open-target.js";
export { runCheck } from "./run-check.js";
