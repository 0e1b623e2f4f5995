// Varied search queries over the synthetic vocabulary: keywords, phrases, partial words, questions, exact paths.
import { seededRandom } from "./random.mjs";
import { ADJECTIVES, CLAUSES, NAMESPACES, VERBS } from "./vocabulary.mjs";

const words = (name) => name.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();

/** `count` deterministic queries; `paths` supplies a few exact-path lookups. */
export function syntheticQueries(count, paths, seed = 7) {
  const random = seededRandom(seed);
  const namespaces = Object.keys(NAMESPACES);
  const resource = () => words(random.pick(NAMESPACES[random.pick(namespaces)]));
  const verb = () => random.pick(VERBS)[0];
  const shapes = [
    () => resource(),
    () => `${verb()} ${resource()}`,
    () => `${verb()} ${random.pick(ADJECTIVES)} ${resource()}`,
    () => `${random.pick(namespaces)} ${resource()} ${verb()}`,
    () => `how do I ${verb()} ${random.pick(ADJECTIVES)} ${resource()} ${random.pick(CLAUSES)}?`,
    () => resource().slice(0, random.int(3, 5)), // a partial word, completed by prefix
    () => `${verb()} ${resource().slice(0, 4)}`,
    () => random.pick(paths),
    () => random.pick(CLAUSES),
    () => "zebra quantum", // matches nothing
  ];
  return Array.from({ length: count }, () => random.pick(shapes)());
}
