// Builds N synthetic operations with zod schemas: several namespaces, nesting, enums, bounded arrays, optional fields.
import { z } from "zod";
import { seededRandom } from "./random.mjs";
import {
  ADJECTIVES,
  CAPABILITIES,
  CLAUSES,
  ENUM_VALUES,
  FIELDS,
  NAMESPACES,
  NOTES,
  QUALIFIERS,
  VERBS,
} from "./vocabulary.mjs";

const namespaces = Object.keys(NAMESPACES);

/** Splits a camelCase resource name into words for prose ("taxRates" → "tax rates"). */
const words = (name) => name.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();

/** One scalar field of the given kind, with bounds and often a description. */
function scalarField(random, kind, name) {
  const described = (schema, text) => (random.chance(0.6) ? schema.describe(text) : schema);
  switch (kind) {
    case "string":
      return described(
        z
          .string()
          .min(random.int(0, 1))
          .max(random.pick([64, 256, 1_024, 4_096])),
        `The ${words(name)} to use.`,
      );
    case "number":
      return described(
        z
          .number()
          .int()
          .min(0)
          .max(random.pick([100, 1_000, 86_400, 1_000_000])),
        `The ${words(name)}, as a whole number.`,
      );
    case "enum":
      return described(z.enum(random.sample(ENUM_VALUES, random.int(2, 6))), `Which ${words(name)} to apply.`);
    case "boolean":
      return described(z.boolean(), `Whether to ${words(name)}.`);
    case "array":
      return described(
        z
          .array(z.string().max(128))
          .min(random.int(0, 1))
          .max(random.pick([10, 50, 100])),
        `The ${words(name)}, at most a few dozen.`,
      );
    default:
      return z.string();
  }
}

/** An object schema of `count` fields; `depth` bounds nesting so projections stay realistic. */
function objectSchema(random, count, depth) {
  const shape = {};
  for (let index = 0; index < count; index += 1) {
    const kinds =
      depth > 0
        ? ["string", "string", "number", "number", "enum", "boolean", "array", "object"]
        : ["string", "number", "enum", "boolean", "array"];
    const kind = random.pick(kinds);
    const name = `${random.pick(FIELDS[kind])}${index > 4 ? index : ""}`;
    if (name in shape) continue;
    let field = kind === "object" ? objectSchema(random, random.int(2, 4), depth - 1) : scalarField(random, kind, name);
    if (random.chance(0.4)) field = field.optional();
    shape[name] = field;
  }
  return z.object(shape);
}

/** A description of one to three sentences from the verb, resource, adjectives and clauses. */
function description(random, verb, resource, namespace) {
  const sentences = [`${verb} ${random.pick(ADJECTIVES)} ${words(resource)} in ${namespace} ${random.pick(CLAUSES)}.`];
  if (random.chance(0.6))
    sentences.push(
      `Works on ${random.pick(ADJECTIVES)} and ${random.pick(ADJECTIVES)} ${words(resource)} ${random.pick(CLAUSES)}.`,
    );
  if (random.chance(0.4)) sentences.push(random.pick(NOTES));
  return sentences.join(" ");
}

/** The method and path an OpenAPI operation of this verb would have; verbs that are not CRUD act on one item. */
function httpNote(verbName, namespace, resource) {
  const collection = `/${namespace}/${resource}`;
  const item = `${collection}/{id}`;
  const [effect, route] = {
    list: ["reads", `GET ${collection}`],
    get: ["reads", `GET ${item}`],
    create: ["writes", `POST ${collection}`],
    update: ["writes", `PATCH ${item}`],
    delete: ["writes", `DELETE ${item}`],
  }[verbName] ?? ["writes", `POST ${item}/${verbName}`];
  return `${effect} over HTTP: ${route}`;
}

/** `count` deterministic, distinct operations (seeded, so every run and size prefix is the same). */
export function syntheticOperations(count, seed = 42) {
  const random = seededRandom(seed);
  const taken = new Set();
  const operations = [];
  while (operations.length < count) {
    const namespace = random.pick(namespaces);
    const resource = random.pick(NAMESPACES[namespace]);
    const [verbName, verbPhrase] = random.pick(VERBS);
    // Half the operations sit one level deeper, under a regional or versioned group, as in hosts that compose APIs.
    const group = random.chance(0.5) ? `.${random.pick(["v1", "v2", "beta", "eu", "us", "apac", "internal"])}` : "";
    const base = `${namespace}${group}.${resource}.${verbName}${random.pick(QUALIFIERS)}`;
    let path = base;
    for (let suffix = 2; taken.has(path); suffix += 1) path = `${base}${suffix}`;
    taken.add(path);
    const operation = {
      path,
      description: description(random, verbPhrase, resource, namespace),
      input: objectSchema(random, random.int(1, 6), 2),
    };
    if (random.chance(0.5)) operation.output = objectSchema(random, random.int(1, 5), 1);
    if (random.chance(0.4)) operation.capabilities = random.sample(CAPABILITIES, random.int(1, 2));
    if (random.chance(0.2)) operation.instructions = random.pick(NOTES);
    // Every other operation carries the HTTP note OpenAPI intake writes (src/sources/openapi-source.ts), so search
    // weighs REST verbs over half the catalog; drawn from no random number, so the rest of the catalog is unchanged.
    if (operations.length % 2 === 0)
      operation.capabilities = [...(operation.capabilities ?? []), httpNote(verbName, namespace, resource)];
    operations.push(operation);
  }
  return operations;
}
