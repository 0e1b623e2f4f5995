// Such names would validate but vanish from the described inputSchema, so describe would not
// tell the truth: sources refuse schemas that use them (catalog files, MCP tools).

/** The first `properties` key or `required` entry named like an Object.prototype member, or "__proto__" anywhere. */
export function inheritedPropertyName(node: unknown, at: string): { name: string; at: string } | undefined {
  return findInherited(node, [at]);
}

// `path` holds the keys down to `node`; a location is spelled only for the name found.
function findInherited(node: unknown, path: string[]): { name: string; at: string } | undefined {
  if (node === null || typeof node !== "object") return undefined;
  // Keys, then each value, rather than Object.entries: one array per object walked, not one per member.
  for (const key of Object.keys(node)) {
    if (key === "__proto__") return { name: key, at: location(path, key) };
    const value: unknown = (node as Record<string, unknown>)[key];
    if (key === "properties" && value !== null && typeof value === "object" && !Array.isArray(value)) {
      const member = Object.keys(value).find(isObjectMember);
      if (member !== undefined) return { name: member, at: location(path, key, member) };
    }
    if (key === "required" && Array.isArray(value)) {
      const member = value.find((entry): entry is string => typeof entry === "string" && isObjectMember(entry));
      if (member !== undefined) return { name: member, at: location(path, key) };
    }
    path.push(key);
    const inner = findInherited(value, path);
    path.pop();
    if (inner !== undefined) return inner;
  }
  return undefined;
}

function location(path: readonly string[], ...keys: string[]): string {
  return [...path, ...keys].join("/");
}

function isObjectMember(name: string): boolean {
  return name === "__proto__" || Object.hasOwn(Object.prototype, name);
}
