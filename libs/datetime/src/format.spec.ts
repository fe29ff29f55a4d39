import { DateParseError } from './errors.js';
import { formatDate, formatDateTime } from './format.js';

describe('formatDateTime', () => {
  it.each([
    ['winter time (+01:00)', '2024-01-15T12:00:00Z', '2024-01-15T13:00:00'],
    ['summer time (+02:00)', '2024-07-15T12:00:00Z', '2024-07-15T14:00:00'],
    ['new year in Berlin, old year in UTC', '2024-12-31T23:30:00Z', '2025-01-01T00:30:00'],
    ['leap day', '2024-02-28T23:00:00Z', '2024-02-29T00:00:00'],
  ])('formats %s: %s → %s', (_name, instant, expected) => {
    expect(formatDateTime(new Date(instant))).toBe(expected);
  });

  describe('spring forward, 31 March 2024 (02:00 → 03:00)', () => {
    it.each([
      ['2024-03-31T00:00:00Z', '2024-03-31T01:00:00'],
      ['2024-03-31T00:59:59Z', '2024-03-31T01:59:59'],
      ['2024-03-31T01:00:00Z', '2024-03-31T03:00:00'],
      ['2024-03-31T01:00:01Z', '2024-03-31T03:00:01'],
      ['2024-03-31T01:30:00Z', '2024-03-31T03:30:00'],
    ])('%s → %s', (instant, expected) => {
      expect(formatDateTime(new Date(instant))).toBe(expected);
    });

    it('never writes a local time between 02:00 and 03:00 that day', () => {
      const start = Date.parse('2024-03-30T22:00:00Z');
      for (let ms = start; ms < start + 8 * 3_600_000; ms += 60_000) {
        expect(formatDateTime(new Date(ms))).not.toMatch(/^2024-03-31T02:/);
      }
    });
  });

  describe('fall back, 27 October 2024 (03:00 → 02:00)', () => {
    it.each([
      ['2024-10-26T23:59:59Z', '2024-10-27T01:59:59'],
      ['2024-10-27T00:00:00Z', '2024-10-27T02:00:00'],
      ['2024-10-27T00:30:00Z', '2024-10-27T02:30:00'],
      ['2024-10-27T00:59:59Z', '2024-10-27T02:59:59'],
      ['2024-10-27T01:00:00Z', '2024-10-27T02:00:00'],
      ['2024-10-27T01:30:00Z', '2024-10-27T02:30:00'],
      ['2024-10-27T01:59:59Z', '2024-10-27T02:59:59'],
      ['2024-10-27T02:00:00Z', '2024-10-27T03:00:00'],
    ])('%s → %s', (instant, expected) => {
      expect(formatDateTime(new Date(instant))).toBe(expected);
    });
  });

  it('cuts milliseconds off rather than rounding them up', () => {
    expect(formatDateTime(new Date('2024-07-15T12:00:59.999Z'))).toBe('2024-07-15T14:00:59');
  });

  it('refuses an invalid Date', () => {
    expect(() => formatDateTime(new Date('nonsense'))).toThrow(RangeError);
  });

  it('refuses an instant whose Berlin year has five digits', () => {
    expect(() => formatDateTime(new Date('9999-12-31T23:30:00Z'))).toThrow(/outside the years 1–9999/);
    expect(formatDateTime(new Date('9999-12-31T22:59:59Z'))).toBe('9999-12-31T23:59:59');
  });
});

describe('formatDate', () => {
  it.each([
    ['2024-06-30T21:59:59Z', '2024-06-30'],
    ['2024-06-30T22:00:00Z', '2024-07-01'],
    ['2024-06-30T22:30:00Z', '2024-07-01'],
    ['2024-12-31T22:59:59Z', '2024-12-31'],
    ['2024-12-31T23:00:00Z', '2025-01-01'],
    ['2024-03-30T23:00:00Z', '2024-03-31'],
    ['2024-10-26T22:30:00Z', '2024-10-27'],
  ])('gives the Berlin calendar date of %s: %s', (instant, expected) => {
    expect(formatDate(new Date(instant))).toBe(expected);
  });

  it.each(['2024-02-29', '2024-12-31', '0001-01-01', '9999-12-31'])(
    'returns the stored date %s unchanged',
    (stored) => {
      expect(formatDate(stored)).toBe(stored);
    },
  );

  it.each([
    ['2023-02-29', 'invalid-value'],
    ['2024-04-31', 'invalid-value'],
    ['2024-13-01', 'invalid-value'],
    ['0000-01-01', 'invalid-value'],
    ['2024-6-1', 'unrecognised'],
    ['31.03.2024', 'unrecognised'],
    ['2024-06-01T00:00:00', 'unrecognised'],
    [' 2024-06-01', 'unrecognised'],
    ['', 'unrecognised'],
  ])('refuses the string %j (%s)', (stored, reason) => {
    let thrown: unknown;
    try {
      formatDate(stored);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DateParseError);
    expect((thrown as DateParseError).reason).toBe(reason);
    expect((thrown as DateParseError).message).toBe(
      `${JSON.stringify(stored)} is not a date in the form YYYY-MM-DD`,
    );
  });

  it('refuses an invalid Date', () => {
    expect(() => formatDate(new Date(Number.NaN))).toThrow(RangeError);
  });
});
