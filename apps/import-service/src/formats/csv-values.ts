import {
  CONTRACT_STATUSES,
  type ContractStatus,
  PAYMENT_MODES,
  type PaymentMode,
  SALUTATIONS,
  type Salutation,
} from '@broker/gdv';

/** A cell that cannot be read; the row is rejected with this message. */
export class CellError extends Error {}

const SALUTATION_VALUES = new Set(
  [...SALUTATIONS.values()].filter((value): value is Salutation => value !== null),
);
const STATUS_VALUES = new Set<ContractStatus>(CONTRACT_STATUSES.values());
const PAYMENT_MODE_VALUES = new Set<PaymentMode>(PAYMENT_MODES.values());

function oneOf<T extends string>(values: Set<T>, column: string, text: string): T {
  const value = text.toLowerCase() as T;
  if (!values.has(value)) throw new CellError(`${column} "${text}" is not one of ${[...values].join(', ')}`);
  return value;
}

export const parseSalutation = (text: string) => oneOf(SALUTATION_VALUES, 'anrede', text);
export const parseStatus = (text: string) => oneOf(STATUS_VALUES, 'status', text);
export const parsePaymentMode = (text: string) => oneOf(PAYMENT_MODE_VALUES, 'zahlweise', text);

/** YYYY-MM-DD or DD.MM.YYYY, a real calendar date; returned as YYYY-MM-DD. */
export function parseDate(column: string, text: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text) ?? /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(text);
  if (!match) throw new CellError(`${column} "${text}" is not a date (YYYY-MM-DD or DD.MM.YYYY)`);
  const [year = 0, month = 0, day = 0] = (
    text.includes('-') ? [match[1], match[2], match[3]] : [match[3], match[2], match[1]]
  ).map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    throw new CellError(`${column} "${text}" is not a calendar date`);
  }
  return date.toISOString().slice(0, 10);
}

/**
 * An amount in euros with at most two decimals, as integer cents: `54,62`, `54.62`, `1.234,56`, `1,234.56`.
 * The last separator is the decimal one when both occur.
 */
export function parseCents(column: string, text: string): number {
  const lastComma = text.lastIndexOf(',');
  const lastDot = text.lastIndexOf('.');
  const decimal = lastComma > lastDot ? ',' : '.';
  const thousands = decimal === ',' ? '.' : ',';
  const normalised = text.split(thousands).join('').replace(decimal, '.');
  if (!/^\d{1,12}(\.\d{1,2})?$/.test(normalised)) {
    throw new CellError(`${column} "${text}" is not an amount (for example 54,62)`);
  }
  const [euros, cents = ''] = normalised.split('.');
  return Number(euros) * 100 + Number(cents.padEnd(2, '0'));
}
