import { plural } from "../tree/text/text-pages.js";

/** "1 operation", "2 operations": a count with its noun agreeing. */
export function count(amount: number, noun: string): string {
  return `${amount} ${plural(amount, noun)}`;
}
