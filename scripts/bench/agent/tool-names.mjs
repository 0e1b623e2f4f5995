// How an agent's answer names a tool, and how tasks name it, brought to one comparable key.
// Plain-files agents answer `server::tool`; mount agents may answer a mount path
// (`github.create_issue`, `github/create_issue.d.ts`, `/abs/mnt/github/create_issue.json`).
// The mount turns characters that are not identifier characters into "_", so keys compare
// with every run of such characters as one "_", case-insensitively.

/** The comparable key of `server::tool`, or undefined when the answer names no tool. */
export function toolKey(answer) {
  if (typeof answer !== "string") return undefined;
  const text = answer.trim();
  const split = text.includes("::") ? splitPair(text) : splitMountPath(text);
  if (split === undefined) return undefined;
  const [server, tool] = split.map(segmentKey);
  return server === "" || tool === "" ? undefined : `${server}::${tool}`;
}

/** A name as the mount would spell it, lower-cased: runs of non-identifier characters become one "_". */
export function segmentKey(name) {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, "_")
    .replace(/_+/g, "_")
    .replace(/^_|_$/g, "");
}

function splitPair(text) {
  const at = text.indexOf("::");
  return [text.slice(0, at), text.slice(at + 2)];
}

// A mount path's last two segments are namespace and operation (the catalogs' namespaces are one segment).
// A last segment holding a dot is a dotted operation path (`linear/linear.create_issue`): mount segments
// are identifiers, so the dot can only separate namespace and operation.
function splitMountPath(text) {
  const path = text.replace(/\.(d\.ts|json|md|txt)$/, "").replace(/\/+$/, "");
  const segments = path.split("/").filter((segment) => segment !== "" && segment !== ".");
  const last = segments[segments.length - 1] ?? "";
  const dot = last.indexOf(".");
  if (dot > 0) return [last.slice(0, dot), last.slice(dot + 1)];
  return segments.length >= 2 ? segments.slice(-2) : undefined;
}
