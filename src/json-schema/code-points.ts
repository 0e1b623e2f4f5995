/**
 * JSON Schema string lengths count Unicode code points, while String#length
 * counts UTF-16 units: "💩" is 1 code point but 2 units. A lone surrogate
 * counts as one code point, as string iteration yields it alone.
 */
export function codePointLength(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}
