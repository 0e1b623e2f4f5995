import { boundDescription, boundTitle } from "../text-limits.js";
import type { AuthHint } from "../types.js";

/** A parameter a declared API-key scheme fills: never guest input. */
export interface CredentialParameter {
  readonly in: "header" | "query" | "cookie";
  readonly name: string;
}

/** The spec's security schemes as hints, plus the parameters their API keys occupy. */
export interface AuthReading {
  readonly hints: AuthHint[];
  readonly credentialParameters: CredentialParameter[];
}

const API_KEY_LOCATIONS = new Set(["header", "query", "cookie"]);

/** Reads components.securitySchemes: names, types and locations only. A spec carries no secrets to read. */
export function readAuthHints(components: unknown): AuthReading {
  const schemes = record(record(components)?.securitySchemes);
  const reading: AuthReading = { hints: [], credentialParameters: [] };
  if (schemes === undefined) return reading;
  for (const [scheme, value] of Object.entries(schemes)) {
    const declared = record(value);
    if (declared === undefined || typeof declared.type !== "string") continue;
    reading.hints.push(authHint(scheme, declared));
    if (
      declared.type === "apiKey" &&
      typeof declared.name === "string" &&
      typeof declared.in === "string" &&
      API_KEY_LOCATIONS.has(declared.in)
    ) {
      reading.credentialParameters.push({ in: declared.in as CredentialParameter["in"], name: declared.name });
    }
  }
  return reading;
}

function authHint(scheme: string, declared: Record<string, unknown>): AuthHint {
  const hint: { -readonly [K in keyof AuthHint]: AuthHint[K] } = { scheme, type: declared.type as string };
  if (declared.type === "apiKey" && typeof declared.in === "string" && API_KEY_LOCATIONS.has(declared.in)) {
    hint.in = declared.in as CredentialParameter["in"];
    if (typeof declared.name === "string") hint.parameterName = declared.name;
  }
  if (declared.type === "http" && typeof declared.scheme === "string")
    hint.httpScheme = boundTitle(declared.scheme.toLowerCase());
  const bearerFormat = boundTitle(declared.bearerFormat);
  if (bearerFormat !== undefined) hint.bearerFormat = bearerFormat;
  const description = boundDescription(declared.description);
  if (description !== undefined) hint.description = description;
  return hint;
}

/** Security requirement alternatives as lists of scheme names; `{}` is the "no credential" alternative. */
export function readSecurity(requirements: unknown): string[][] {
  if (!Array.isArray(requirements)) return [];
  return requirements.filter((entry) => record(entry) !== undefined).map((entry) => Object.keys(entry as object));
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
