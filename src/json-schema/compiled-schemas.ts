import * as crypto from "node:crypto";
import type { z } from "zod";
import { ForageError, type ForageErrorCode } from "../forage-error.js";

/**
 * SHA-256 of a text, in base64: Node's one-shot `crypto.hash` where it has one (20.12 and later), two
 * to three times faster than a Hash object for the short texts most schemas are, else a Hash object.
 */
const sha256Base64: (text: string) => string =
  typeof crypto.hash === "function"
    ? (text) => crypto.hash("sha256", text, "base64")
    : (text) => crypto.createHash("sha256").update(text).digest("base64");

/**
 * Refusals remembered at most: each is a digest and a message, a few hundred bytes; the oldest
 * go first past this.
 */
const MAX_REFUSALS = 16_384;

/** What a refusal said, without the error object (whose stack would hold what the compiler held). */
interface Refusal {
  readonly code: ForageErrorCode;
  readonly message: string;
  readonly details: Readonly<Record<string, unknown>>;
}

/**
 * Validators compiled from identical schema texts, shared while anyone holds one. Real tool
 * sets repeat schemas (a third of the input schemas of 20,000 public tools repeat one
 * another, `{"type":"object","properties":{}}` alone hundreds of times), and compiling is the
 * largest part of reading them; a validator never changes once made, so the same text
 * compiled under the same options may give the same object. Entries are held weakly: one
 * goes when the last holder of its validator lets go, so the cache never keeps a catalog
 * alive or grows past what is in use.
 *
 * Refusals repeat too, and cost as much: a schema is compiled up to the keyword it refuses (at
 * 20,000 tools, 7,426 refused input schemas took a third of the compiling). The same text
 * under the same options is refused the same way, so the refusal is remembered (by digest,
 * a bounded number of them) and thrown anew as a fresh error with the same code, message and
 * details.
 */
export class CompiledSchemas {
  readonly #byKey = new Map<string, WeakRef<z.ZodType>>();
  readonly #refusals = new Map<string, Refusal>();
  readonly #forget = new FinalizationRegistry<string>((key) => {
    if (this.#byKey.get(key)?.deref() === undefined) this.#byKey.delete(key);
  });

  /** The validator for `text` under `options`, made by `compile` unless one is still held or it was refused before. */
  compile(options: string, text: string, compile: () => z.ZodType): z.ZodType {
    // A digest rather than the text as the key, so the cache holds 44 characters per schema, not a copy of it.
    const key = `${options}\u0000${sha256Base64(text)}`;
    const known = this.#byKey.get(key)?.deref();
    if (known !== undefined) return known;
    const refused = this.#refusals.get(key);
    if (refused !== undefined) throw new ForageError(refused.code, refused.message, refused.details);
    let made: z.ZodType;
    try {
      made = compile();
    } catch (error) {
      if (error instanceof ForageError) this.#remember(key, error);
      throw error;
    }
    this.#byKey.set(key, new WeakRef(made));
    this.#forget.register(made, key);
    return made;
  }

  #remember(key: string, { code, message, details }: ForageError): void {
    if (this.#refusals.size >= MAX_REFUSALS) this.#refusals.delete(this.#refusals.keys().next().value as string);
    this.#refusals.set(key, { code, message, details });
  }
}
