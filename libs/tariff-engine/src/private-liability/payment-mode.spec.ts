import { INSTALMENTS_PER_YEAR, normalisePaymentMode, PAYMENT_MODES } from './payment-mode.js';

describe('normalisePaymentMode', () => {
  it.each([
    ['monthly', 'monthly'],
    ['quarterly', 'quarterly'],
    ['half_yearly', 'half_yearly'],
    ['yearly', 'yearly'],
    ['monatlich', 'monthly'],
    ['vierteljaehrlich', 'quarterly'],
    ['vierteljährlich', 'quarterly'],
    ['halbjaehrlich', 'half_yearly'],
    ['halbjährlich', 'half_yearly'],
    ['jaehrlich', 'yearly'],
    ['jährlich', 'yearly'],
    ['MONTHLY', 'monthly'],
    ['Monatlich', 'monthly'],
    ['JÄHRLICH', 'yearly'],
    ['Half_Yearly', 'half_yearly'],
    ['halbja\u0308hrlich', 'half_yearly'], // decomposed umlaut
  ])('%j → %s', (text, mode) => {
    expect(normalisePaymentMode(text)).toBe(mode);
  });

  it.each([
    [''],
    [' monthly'],
    ['monthly '],
    ['half-yearly'],
    ['halfyearly'],
    ['annually'],
    ['jahrlich'],
    ['monatl.'],
    ['constructor'],
    ['__proto__'],
    [null],
    [undefined],
    [12],
    [{}],
  ])('%j → undefined', (text) => {
    expect(normalisePaymentMode(text)).toBeUndefined();
  });

  it('has instalments per year for every mode', () => {
    expect(PAYMENT_MODES.map((mode) => INSTALMENTS_PER_YEAR[mode])).toEqual([1, 2, 4, 12]);
  });
});
