import { createHash } from "node:crypto";

/** JSON with object keys sorted by code unit at every depth, so equal content gives equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner === null || typeof inner !== "object" || Array.isArray(inner)) return inner;
    // A null prototype keeps a "__proto__" key an ordinary own key.
    const sorted: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const key of Object.keys(inner).sort()) sorted[key] = (inner as Record<string, unknown>)[key];
    return sorted;
  });
}

/** SHA-256 hex digest of a string. */
export function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
