import { createHash } from "node:crypto";

/**
 * JSON with object keys sorted by code unit at every depth, so equal content
 * gives equal text. It writes the text in one walk instead of re-building
 * sorted copies for JSON.stringify: catalog creation runs it once per
 * operation, over whole schema projections.
 */
export function canonicalJson(value: unknown): string {
  return encode(value) ?? "undefined";
}

/** The canonical text of a value, or undefined where JSON.stringify would omit it. */
function encode(value: unknown): string | undefined {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return Number.isFinite(value) ? String(value) : "null";
    case "boolean":
      return value ? "true" : "false";
    case "object":
      break;
    case "bigint":
      throw new TypeError("Do not know how to serialize a BigInt");
    default:
      return undefined; // undefined, functions and symbols, as JSON.stringify leaves them out
  }
  if (value === null) return "null";
  const toJson = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJson === "function") return encode((toJson as () => unknown).call(value));
  if (Array.isArray(value)) {
    const items = new Array<string>(value.length);
    for (let index = 0; index < value.length; index += 1) items[index] = encode(value[index]) ?? "null";
    return `[${items.join(",")}]`;
  }
  const members: string[] = [];
  const keys = Object.keys(value);
  if (keys.length > 1) keys.sort();
  // Object.keys and [key] read own properties, so a "__proto__" key from JSON.parse stays ordinary data.
  for (const key of keys) {
    const inner = encode((value as Record<string, unknown>)[key]);
    if (inner !== undefined) members.push(`${JSON.stringify(key)}:${inner}`);
  }
  return `{${members.join(",")}}`;
}

/** SHA-256 hex digest of a string (its UTF-8) or of bytes. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}
