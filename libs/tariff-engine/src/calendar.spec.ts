import { ageAt, berlinCalendarDate } from './calendar.js';

const seconds = (iso: string): number => Date.parse(iso) / 1000;

describe('calendar', () => {
  it('reads instants as calendar dates in Europe/Berlin', () => {
    // 23:00 UTC on 14 March is midnight of 15 March in Berlin (winter time)
    expect(berlinCalendarDate(seconds('1985-03-14T23:00:00Z'))).toEqual({ year: 1985, month: 3, day: 15 });
    expect(berlinCalendarDate(seconds('1985-03-15T00:00:00Z'))).toEqual({ year: 1985, month: 3, day: 15 });
    // 22:00 UTC on 14 June is midnight of 15 June in Berlin (summer time)
    expect(berlinCalendarDate(new Date('2025-06-14T22:00:00Z'))).toEqual({ year: 2025, month: 6, day: 15 });
    expect(berlinCalendarDate(new Date('2025-06-14T21:59:59Z'))).toEqual({ year: 2025, month: 6, day: 14 });
    expect(berlinCalendarDate(seconds('1900-01-01T00:00:00Z'))).toEqual({ year: 1900, month: 1, day: 1 });
  });

  it('gives the same age for midnight UTC and midnight Berlin birthdates', () => {
    const on = new Date('2025-03-15T12:00:00Z');
    expect(ageAt(seconds('1985-03-15T00:00:00Z'), on)).toBe(40);
    expect(ageAt(seconds('1985-03-14T23:00:00Z'), on)).toBe(40);
    expect(ageAt(seconds('1985-03-16T00:00:00Z'), on)).toBe(39);
  });

  it('counts completed years: older on the birthday, not the day before', () => {
    const born = seconds('2000-06-15T00:00:00Z');
    expect(ageAt(born, new Date('2025-06-14T12:00:00Z'))).toBe(24);
    expect(ageAt(born, new Date('2025-06-15T00:00:00+02:00'))).toBe(25); // first moment of the day in Berlin
    expect(ageAt(born, new Date('2025-06-14T23:59:59+02:00'))).toBe(24);
  });

  it('makes someone born on 29 February older on 1 March in common years', () => {
    const born = seconds('2004-02-29T00:00:00Z');
    expect(ageAt(born, new Date('2025-02-28T12:00:00Z'))).toBe(20);
    expect(ageAt(born, new Date('2025-03-01T12:00:00Z'))).toBe(21);
    expect(ageAt(born, new Date('2028-02-29T12:00:00Z'))).toBe(24);
  });

  it('is negative for a birthdate after the calculation date, and refuses invalid instants', () => {
    expect(ageAt(seconds('2030-01-01T00:00:00Z'), new Date('2025-06-15T00:00:00Z'))).toBe(-5);
    expect(() => ageAt(Number.NaN, new Date())).toThrow(RangeError);
    expect(() => ageAt(0, new Date('not a date'))).toThrow(/calculation date/);
  });
});

describe('berlinCalendarDate against the zone data', () => {
  const zoneDate = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/Berlin',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
  });
  const expected = (ms: number) => {
    const parts = Object.fromEntries(
      zoneDate.formatToParts(new Date(ms)).map((part) => [part.type, part.value]),
    );
    return { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day) };
  };
  const HOUR = 3_600_000;

  it('agrees in every hour around the midnights of changes of offset (summer time, 1945, 1947, 1893)', () => {
    const changes = [
      '1893-04-01',
      '1916-04-30',
      '1916-10-01',
      '1940-04-01',
      '1945-05-24',
      '1945-09-24',
      '1947-05-11',
      '1947-06-29',
      '1980-04-06',
      '1996-10-27',
      '2025-03-30',
      '2025-10-26',
      '2099-10-25',
    ];
    for (const change of changes) {
      const midnight = Date.parse(`${change}T00:00:00Z`);
      for (let ms = midnight - 3 * 86_400_000; ms <= midnight + 3 * 86_400_000; ms += HOUR / 4) {
        expect([ms, berlinCalendarDate(new Date(ms))]).toEqual([ms, expected(ms)]);
      }
    }
  });

  it('agrees for random instants from 1800 to 2200', () => {
    let state = 20261122;
    const from = Date.UTC(1800, 0, 1);
    const span = Date.UTC(2200, 0, 1) - from;
    for (let index = 0; index < 20_000; index++) {
      state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
      const ms = from + Math.floor((state / 2 ** 32) * span);
      expect([ms, berlinCalendarDate(new Date(ms))]).toEqual([ms, expected(ms)]);
    }
  });
});
