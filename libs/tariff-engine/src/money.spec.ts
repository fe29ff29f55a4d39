import { basisPointsToPercent, divideRoundHalfUp, formatCents, percentOf } from './money.js';

describe('money', () => {
  it.each([
    [0, 12, 0],
    [6248, 12, 521], // 520.67
    [8079, 12, 673], // 673.25
    [6129, 2, 3065], // 3064.5: half up
    [4106, 4, 1027], // 1026.5
    [4065, 2, 2033],
    [5481, 4, 1370], // 1370.25
    [11, 2, 6],
    [10, 4, 3], // 2.5
    [9, 4, 2], // 2.25
  ])('divideRoundHalfUp(%i, %i) = %i', (numerator, divisor, expected) => {
    expect(divideRoundHalfUp(numerator, divisor)).toBe(expected);
  });

  it.each([
    [3333, 1900, 633], // 633.27
    [5250, 1900, 998], // 997.50: half up
    [3333, 750, 250], // 249.975
    [3333, 250, 83], // 83.325
    [4999, 1000, 500], // 499.9
    [1, 4999, 0], // 0.4999
    [1, 5000, 1], // 0.5
    [12345, 0, 0],
    [12345, 10000, 12345],
  ])('percentOf(%i, %i bp) = %i', (cents, basisPoints, expected) => {
    expect(percentOf(cents, basisPoints)).toBe(expected);
  });

  it('is exact for large amounts', () => {
    expect(percentOf(900_719_925_474, 1900)).toBe(171_136_785_840); // 171136785840.06
    expect(divideRoundHalfUp(Number.MAX_SAFE_INTEGER, 2)).toBe(4_503_599_627_370_496);
  });

  it('refuses negative, fractional and unsafe amounts', () => {
    expect(() => percentOf(-1, 100)).toThrow(RangeError);
    expect(() => percentOf(10.5, 100)).toThrow(RangeError);
    expect(() => percentOf(Number.MAX_SAFE_INTEGER, 1900)).toThrow(RangeError);
    expect(() => divideRoundHalfUp(10, 0)).toThrow(RangeError);
    expect(() => formatCents(Number.NaN)).toThrow(RangeError);
  });

  it.each([
    [0, '0.00'],
    [5, '0.05'],
    [99, '0.99'],
    [100, '1.00'],
    [1234, '12.34'],
    [1234567, '12345.67'],
  ])('formatCents(%i) = %s', (cents, text) => {
    expect(formatCents(cents)).toBe(text);
  });

  it('writes basis points as the percentage number', () => {
    expect(basisPointsToPercent(1900)).toBe(19);
    expect(basisPointsToPercent(1950)).toBe(19.5);
  });
});
