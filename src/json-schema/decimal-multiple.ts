/**
 * `multipleOf` on the decimal values the JSON text spelled, not on binary
 * floats: 0.0075 is a multiple of 0.0001 although 0.0075 % 0.0001 is not 0.
 *
 * Each number's shortest round-trip form (what Number#toString prints) is read
 * as an exact decimal `digits × 10^exponent`; both are scaled to a common
 * exponent and compared with BigInt remainder, which cannot overflow.
 */
export function isDecimalMultiple(value: number, divisor: number): boolean {
  if (!Number.isFinite(value) || !Number.isFinite(divisor) || divisor <= 0) return false;
  if (value === 0) return true;
  const a = toDecimal(value);
  const b = toDecimal(divisor);
  const exponent = Math.min(a.exponent, b.exponent);
  const scaledValue = a.digits * 10n ** BigInt(a.exponent - exponent);
  const scaledDivisor = b.digits * 10n ** BigInt(b.exponent - exponent);
  return scaledValue % scaledDivisor === 0n;
}

interface Decimal {
  readonly digits: bigint;
  readonly exponent: number;
}

function toDecimal(value: number): Decimal {
  const [mantissa = "0", exponentText] = Math.abs(value).toString().split("e");
  const [whole = "0", fraction = ""] = mantissa.split(".");
  const exponent = (exponentText === undefined ? 0 : Number(exponentText)) - fraction.length;
  return { digits: BigInt(whole + fraction), exponent };
}
