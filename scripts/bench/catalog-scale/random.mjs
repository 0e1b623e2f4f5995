// A small seeded generator, so every run builds exactly the same synthetic catalog.

/** A deterministic pseudo-random source (mulberry32) with the picks the generator needs. */
export function seededRandom(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (min, max) => min + Math.floor(next() * (max - min + 1));
  const pick = (items) => items[Math.floor(next() * items.length)];
  const chance = (probability) => next() < probability;
  /** `count` distinct items, in random order. */
  const sample = (items, count) => {
    const pool = [...items];
    for (let index = pool.length - 1; index > 0; index -= 1) {
      const other = Math.floor(next() * (index + 1));
      [pool[index], pool[other]] = [pool[other], pool[index]];
    }
    return pool.slice(0, Math.min(count, pool.length));
  };
  return { next, int, pick, chance, sample };
}
