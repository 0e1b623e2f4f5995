/** True for a JSON media type: application/json or any structured "+json" type, parameters ignored. */
export function isJsonMediaType(mediaType: string): boolean {
  const essence = (mediaType.split(";")[0] ?? "").trim().toLowerCase();
  return essence === "application/json" || /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+\+json$/.test(essence);
}

/** The JSON media types of a `content` map, application/json first, then the rest sorted. */
export function jsonMediaTypes(content: Record<string, unknown>): string[] {
  const json = Object.keys(content).filter(isJsonMediaType).sort();
  const plain = json.findIndex((type) => (type.split(";")[0] ?? "").trim().toLowerCase() === "application/json");
  if (plain > 0) json.unshift(...json.splice(plain, 1));
  return json;
}
