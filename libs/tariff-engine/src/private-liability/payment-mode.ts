/** The payment modes (Zahlweisen) of the request and the response, cheapest first. */
export const PAYMENT_MODES = ['yearly', 'half_yearly', 'quarterly', 'monthly'] as const;

export type PaymentMode = (typeof PAYMENT_MODES)[number];

/** Instalments per year of each payment mode. */
export const INSTALMENTS_PER_YEAR: Readonly<Record<PaymentMode, number>> = {
  yearly: 1,
  half_yearly: 2,
  quarterly: 4,
  monthly: 12,
};

const SPELLINGS: ReadonlyMap<string, PaymentMode> = new Map<string, PaymentMode>([
  ['yearly', 'yearly'],
  ['half_yearly', 'half_yearly'],
  ['quarterly', 'quarterly'],
  ['monthly', 'monthly'],
  ['jaehrlich', 'yearly'],
  ['jährlich', 'yearly'],
  ['halbjaehrlich', 'half_yearly'],
  ['halbjährlich', 'half_yearly'],
  ['vierteljaehrlich', 'quarterly'],
  ['vierteljährlich', 'quarterly'],
  ['monatlich', 'monthly'],
]);

/** Every request spelling `normalisePaymentMode` accepts (in lower case). */
export const PAYMENT_MODE_SPELLINGS: readonly string[] = [...SPELLINGS.keys()];

export function isPaymentMode(value: unknown): value is PaymentMode {
  return typeof value === 'string' && Object.hasOwn(INSTALMENTS_PER_YEAR, value);
}

/**
 * The payment mode a request text means: `monthly`, `quarterly`, `half_yearly`, `yearly` or the German
 * `monatlich`, `vierteljaehrlich`/`vierteljährlich`, `halbjaehrlich`/`halbjährlich`, `jaehrlich`/`jährlich`,
 * in any letter case (umlauts composed or decomposed). Anything else, including surrounding whitespace and
 * non-strings, gives `undefined`.
 */
export function normalisePaymentMode(text: unknown): PaymentMode | undefined {
  if (typeof text !== 'string') return undefined;
  return SPELLINGS.get(text.normalize('NFC').toLowerCase());
}
