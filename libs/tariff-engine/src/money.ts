/**
 * Integer money arithmetic. Every amount inside the engine is a non-negative whole number of cents and every
 * percentage a whole number of basis points (1 % = 100 bp); no floating-point value ever holds money. Rounding
 * is half up on whole cents, which for non-negative amounts is the commercial rounding German tariffs use.
 */

/** Basis points in 100 %. */
export const BASIS_POINTS_PER_UNIT = 10_000;

function assertCents(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${what} must be a non-negative safe integer, got ${value}`);
  }
}

/**
 * `numerator / divisor` rounded half up to a whole number, exactly: both operands are non-negative safe
 * integers, `%` and the division of a multiple of `divisor` are exact in IEEE arithmetic.
 */
export function divideRoundHalfUp(numerator: number, divisor: number): number {
  assertCents(numerator, 'numerator');
  if (!Number.isSafeInteger(divisor) || divisor <= 0) {
    throw new RangeError(`divisor must be a positive safe integer, got ${divisor}`);
  }
  const remainder = numerator % divisor;
  const quotient = (numerator - remainder) / divisor;
  return remainder * 2 >= divisor ? quotient + 1 : quotient;
}

/** `basisPoints` of `cents`, rounded half up to whole cents: `percentOf(4999, 1000)` is 500 (499.9 → 500). */
export function percentOf(cents: number, basisPoints: number): number {
  assertCents(cents, 'cents');
  assertCents(basisPoints, 'basis points');
  const product = cents * basisPoints;
  if (!Number.isSafeInteger(product)) throw new RangeError(`amount ${cents} too large for ${basisPoints} bp`);
  return divideRoundHalfUp(product, BASIS_POINTS_PER_UNIT);
}

/** Cents as a decimal string with two places and a dot: 1234 → "12.34", 5 → "0.05". */
export function formatCents(cents: number): string {
  assertCents(cents, 'cents');
  const euros = Math.floor(cents / 100);
  return `${euros}.${String(cents % 100).padStart(2, '0')}`;
}

/** Basis points as the percentage number of the response's tax entries: 1900 → 19, 1950 → 19.5. */
export function basisPointsToPercent(basisPoints: number): number {
  return basisPoints / 100;
}
