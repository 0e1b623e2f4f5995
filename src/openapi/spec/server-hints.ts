import { boundDescription } from "../text-limits.js";
import type { ServerHint } from "../types.js";

// A stand-in origin for checking that a relative hint stays on the spec's own origin.
const SPEC_ORIGIN = "https://spec.invalid";

/**
 * Server hints from a `servers` array: variables replaced by their defaults,
 * then kept only when HTTPS without userinfo, query or fragment, or when
 * relative to the spec's own location. Every dropped hint gets a note. Hints
 * confer no network admission and select no credential destination.
 */
export function readServerHints(servers: unknown, where: string, notes: string[]): ServerHint[] {
  if (servers === undefined) return [];
  if (!Array.isArray(servers)) {
    notes.push(`${where}: servers is not a list; no server hints taken from it`);
    return [];
  }
  const hints: ServerHint[] = [];
  for (const server of servers) {
    const hint = readServerHint(server);
    if (typeof hint === "string") notes.push(`${where}: server hint dropped: ${hint}`);
    else hints.push(hint);
  }
  return hints;
}

/** The spec-level hints; OpenAPI's default server "/" when none are declared. */
export function readSpecServerHints(servers: unknown, notes: string[]): ServerHint[] {
  if (servers === undefined || (Array.isArray(servers) && servers.length === 0)) return [{ url: "/", relative: true }];
  return readServerHints(servers, "spec", notes);
}

function readServerHint(server: unknown): ServerHint | string {
  if (typeof server !== "object" || server === null || Array.isArray(server)) return "a server entry is not an object";
  const record = server as Record<string, unknown>;
  if (typeof record.url !== "string") return "a server entry has no url";
  const url = substituteVariables(record.url, record.variables);
  if (url === undefined) return `${JSON.stringify(record.url)} uses a server variable without a default`;
  const checked = checkServerUrl(url);
  if (typeof checked === "string") return `${JSON.stringify(redactUserinfo(url))} ${checked}`;
  const description = boundDescription(record.description);
  return description === undefined ? checked : { ...checked, description };
}

// A dropped hint's note must not repeat a password written into its URL.
function redactUserinfo(url: string): string {
  return url.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/?#]*@/, "$1[userinfo]@");
}

function substituteVariables(url: string, variables: unknown): string | undefined {
  let missing = false;
  const replaced = url.replace(/\{([^{}]*)\}/g, (_match, name: string) => {
    const variable =
      typeof variables === "object" && variables !== null && Object.hasOwn(variables, name)
        ? (variables as Record<string, unknown>)[name]
        : undefined;
    const fallback =
      typeof variable === "object" && variable !== null ? (variable as Record<string, unknown>).default : undefined;
    if (typeof fallback !== "string") missing = true;
    return typeof fallback === "string" ? fallback : "";
  });
  return missing ? undefined : replaced;
}

/** A kept hint, or why the URL is dropped. */
export function checkServerUrl(url: string): ServerHint | string {
  if (/[\s\\]/.test(url) || /[\u0000-\u001f\u007f]/.test(url))
    return "contains whitespace, control characters or backslashes";
  if (url.startsWith("//")) return "is scheme-relative, which can name another host";
  const absolute = /^[A-Za-z][A-Za-z0-9+.-]*:/.test(url);
  let parsed: URL;
  try {
    parsed = absolute ? new URL(url) : new URL(url, `${SPEC_ORIGIN}/spec/`);
  } catch {
    return "is not a valid URL";
  }
  if (parsed.search !== "" || parsed.hash !== "" || url.includes("?") || url.includes("#"))
    return "has a query or fragment";
  if (!absolute) return parsed.origin === SPEC_ORIGIN ? { url, relative: true } : "leaves the spec's origin";
  if (parsed.protocol !== "https:" || !/^https:\/\//i.test(url)) return "is not HTTPS";
  const authority = url.slice("https://".length).split("/")[0] ?? "";
  if (parsed.username !== "" || parsed.password !== "" || authority.includes("@")) return "has userinfo";
  return { url, relative: false };
}
