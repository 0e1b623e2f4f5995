import { createHash } from "node:crypto";
import type { z } from "zod";

/**
 * Validators compiled from identical schema texts, shared while anyone holds one. Real tool
 * sets repeat schemas (a third of the input schemas of 20,000 public tools repeat one
 * another, `{"type":"object","properties":{}}` alone hundreds of times), and compiling is the
 * largest part of reading them; a validator never changes once made, so the same text
 * compiled under the same options may give the same object. Entries are held weakly: one
 * goes when the last holder of its validator lets go, so the cache never keeps a catalog
 * alive or grows past what is in use.
 */
export class CompiledSchemas {
  readonly #byKey = new Map<string, WeakRef<z.ZodType>>();
  readonly #forget = new FinalizationRegistry<string>((key) => {
    if (this.#byKey.get(key)?.deref() === undefined) this.#byKey.delete(key);
  });

  /** The validator for `text` under `options`, made by `compile` unless one is still held. */
  compile(options: string, text: string, compile: () => z.ZodType): z.ZodType {
    // A digest rather than the text as the key, so the cache holds 44 characters per schema, not a copy of it.
    const key = `${options}\u0000${createHash("sha256").update(text).digest("base64")}`;
    const known = this.#byKey.get(key)?.deref();
    if (known !== undefined) return known;
    const made = compile();
    this.#byKey.set(key, new WeakRef(made));
    this.#forget.register(made, key);
    return made;
  }
}
