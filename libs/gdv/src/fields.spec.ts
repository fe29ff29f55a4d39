import {
  decodeCents,
  decodeDate,
  decodeImpliedDecimal,
  decodeMonthYear,
  decodeSignedCents,
  decodeUnsigned,
  InvalidValue,
} from './fields.js';
import { partNumberOf } from './part-number.js';

describe('numeric fields', () => {
  it('reads N fields: zeros are 0, blanks are not set, blank fill is tolerated', () => {
    expect(decodeUnsigned('0000000162')).toBe(162);
    expect(decodeUnsigned('0000000000')).toBe(0);
    expect(decodeUnsigned('          ')).toBeNull();
    expect(decodeUnsigned('       162')).toBe(162);
    expect(decodeUnsigned('01 2')).toBeInstanceOf(InvalidValue);
  });

  it('places implied decimals exactly (F(n))', () => {
    expect(decodeImpliedDecimal('000000041141', 2)).toBe('411.41');
    expect(decodeImpliedDecimal('10000', 3)).toBe('10.000');
    expect(decodeImpliedDecimal('1000', 2)).toBe('10.00');
    expect(decodeImpliedDecimal('5', 2)).toBe('0.05');
    expect(decodeImpliedDecimal('000000000000', 2)).toBe('0.00');
    expect(decodeImpliedDecimal('12x4', 2)).toBeInstanceOf(InvalidValue);
  });

  it('reads F(2) amounts as integer cents, never as floats', () => {
    expect(decodeCents('000000041141')).toBe(41141);
    expect(decodeCents('000000000480600')).toBe(480600);
    expect(decodeCents('000000000029')).toBe(29);
    expect(decodeCents('999999999999999')).toBe(999999999999999);
    expect(decodeCents('            ')).toBeNull();
  });

  it('applies the separate sign byte that follows an amount', () => {
    expect(decodeSignedCents('00000001686613', '+')).toBe(1686613);
    expect(decodeSignedCents('00000001686613', '-')).toBe(-1686613);
    expect(decodeSignedCents('00000001686613', ' ')).toBe(1686613);
    expect(decodeSignedCents('00000001686613', '*')).toEqual(new InvalidValue('*', 'a sign + or -'));
  });
});

describe('dates', () => {
  it('reads TTMMJJJJ', () => {
    expect(decodeDate('01052004')).toEqual({ iso: '2004-05-01', precision: 'day' });
    expect(decodeDate('29022024')).toEqual({ iso: '2024-02-29', precision: 'day' });
  });

  it('returns the 1st with a precision flag when day or month is 00', () => {
    expect(decodeDate('00052004')).toEqual({ iso: '2004-05-01', precision: 'month' });
    expect(decodeDate('00002004')).toEqual({ iso: '2004-01-01', precision: 'year' });
    expect(decodeDate('15002004')).toEqual({ iso: '2004-01-01', precision: 'year' });
  });

  it('treats 00000000 and blanks as not set', () => {
    expect(decodeDate('00000000')).toBeNull();
    expect(decodeDate('        ')).toBeNull();
  });

  it('rejects impossible dates instead of rolling them over', () => {
    expect(decodeDate('31022004')).toBeInstanceOf(InvalidValue);
    expect(decodeDate('29022023')).toBeInstanceOf(InvalidValue);
    expect(decodeDate('01132004')).toBeInstanceOf(InvalidValue);
    expect(decodeDate('01010000')).toBeInstanceOf(InvalidValue);
    expect(decodeDate('0105200A')).toBeInstanceOf(InvalidValue);
  });

  it('reads MMJJJJ with month precision', () => {
    expect(decodeMonthYear('072009')).toEqual({ iso: '2009-07-01', precision: 'month' });
    expect(decodeMonthYear('000000')).toBeNull();
  });
});

describe('part numbers', () => {
  const line = (prefix: string, fill: Record<number, string>): string => {
    const characters = prefix.padEnd(256, ' ').split('');
    for (const [position, character] of Object.entries(fill)) characters[Number(position) - 1] = character;
    return characters.join('');
  };
  const key = (satzart: string, sparte: string): string => `${satzart}9999  ${sparte}`;

  it('reads byte 256 by default and ignores 0 and blanks there', () => {
    expect(partNumberOf(line(key('0100', '030'), { 256: '4' }))).toBe(4);
    expect(partNumberOf(line(key('0100', '030'), { 256: '0' }))).toBeNull();
    expect(partNumberOf(line(key('0210', '040'), {}))).toBeNull();
  });

  it('looks the position up by Satzart and Sparte where it is not byte 256', () => {
    expect(partNumberOf(line(key('0210', '130'), { 251: '2', 256: '7' }))).toBe(2);
    expect(partNumberOf(line(key('0220', '040'), { 51: '2', 256: 'X' }))).toBe(2);
    expect(partNumberOf(line(key('0220', '000'), { 47: '3' }))).toBe(3);
    expect(partNumberOf(line(key('0210', '080'), { 43: '2' }))).toBe(2);
    expect(partNumberOf(line(key('0220', '170'), { 50: '2' }))).toBe(2);
    expect(partNumberOf(line(key('0221', '070'), { 53: '2' }))).toBe(2);
    expect(partNumberOf(line(key('0500', '030'), { 66: '3' }))).toBe(3);
    expect(partNumberOf(line(key('0450', '190'), { 51: '2' }))).toBe(2);
    expect(partNumberOf(line(key('0280', '550'), { 43: '2' }))).toBe(2);
  });

  it('reads 0220.030 parts 1/2/4 at byte 49, part 3 at 43 and part 9 at 60, not the X at 256', () => {
    expect(partNumberOf(line(key('0220', '030'), { 49: '2', 256: 'X' }))).toBe(2);
    expect(partNumberOf(line(key('0220', '030'), { 49: '4' }))).toBe(4);
    expect(partNumberOf(line(key('0220', '030'), { 43: '3', 256: '1' }))).toBe(3);
    expect(partNumberOf(line(key('0221', '030'), { 49: '0', 60: '9' }))).toBe(9);
  });

  it('uses the main Sparte or the general 000 layout for Sparten without a layout of their own', () => {
    expect(partNumberOf(line(key('0220', '089'), { 49: '2' }))).toBe(2);
    expect(partNumberOf(line(key('0220', '231'), { 49: '2' }))).toBe(2);
    expect(partNumberOf(line(key('0220', '299'), { 47: '2' }))).toBe(2);
    expect(partNumberOf(line(key('0210', '296'), { 43: '2' }))).toBe(2);
    expect(partNumberOf(line(key('0220', '051'), { 256: '1' }))).toBe(1);
  });
});
