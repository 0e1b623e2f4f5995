import type { ForageValidator } from "../../src/index.js";

/** A hand-made Standard Schema whose JSON Schema projections are given as they are, as a host other than zod might write it. */
export function handMade(input: object, output: object = input): ForageValidator {
  return {
    "~standard": {
      version: 1,
      vendor: "x",
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input: () => input, output: () => output },
    },
  } as unknown as ForageValidator;
}
