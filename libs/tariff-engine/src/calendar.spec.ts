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
