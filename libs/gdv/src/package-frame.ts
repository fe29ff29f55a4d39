import { type GdvWarning, type Nachsatz, type NachsatzCheck, type Vorsatz, warning } from './events.js';
import {
  decodeCents,
  decodeDate,
  decodeSignedCents,
  decodeUnsigned,
  type Decoded,
  InvalidValue,
} from './fields.js';
import { field, NACHSATZ, type Span, trimmedField, VORSATZ } from './layout.js';
import { type GdvRecord, linesOf, type Teildatensatz } from './records.js';

function orNull<T>(decoded: Decoded<T>): T | null {
  return decoded instanceof InvalidValue ? null : decoded;
}

function version(text: string, span: Span): string | null {
  return trimmedField(text, span) || null;
}

/** Reads the Vorsatz from its first Teildatensatz; bytes 1–95 repeat in the others. */
export function parseVorsatz(record: GdvRecord): Vorsatz {
  const first = record.parts[0];
  const text = first ? first.text : '';
  return {
    vuNumber: trimmedField(text, VORSATZ.vuNumber),
    sender: trimmedField(text, VORSATZ.sender),
    recipient: trimmedField(text, VORSATZ.recipient),
    periodFrom: orNull(decodeDate(field(text, VORSATZ.periodFrom))),
    periodTo: orNull(decodeDate(field(text, VORSATZ.periodTo))),
    broker: trimmedField(text, VORSATZ.broker),
    versions: {
      vorsatz: version(text, VORSATZ.versionVorsatz),
      adressteil: version(text, VORSATZ.versionAdressteil),
      vertragsteil: version(text, VORSATZ.versionVertragsteil),
      nachsatz: version(text, VORSATZ.versionNachsatz),
    },
    partCount: record.parts.length,
    lines: linesOf(record),
  };
}

export function vorsatzWarnings(vorsatz: Vorsatz): GdvWarning[] {
  if (vorsatz.partCount === 2 || vorsatz.partCount === 3) return [];
  return [warning('vorsatz-parts', vorsatz.lines, `Vorsatz has ${vorsatz.partCount} parts; expected 2 or 3`)];
}

function signedAmount(text: string, amount: Span, sign: Span): number | null {
  return orNull(decodeSignedCents(field(text, amount), field(text, sign)));
}

export function parseNachsatz(part: Teildatensatz): Nachsatz {
  const { text } = part;
  return {
    recordCount: orNull(decodeUnsigned(field(text, NACHSATZ.recordCount))),
    broker: trimmedField(text, NACHSATZ.broker),
    totalPremiumCents: orNull(decodeCents(field(text, NACHSATZ.totalPremium))),
    totalGrossPremiumCents: signedAmount(text, NACHSATZ.totalGrossPremium, NACHSATZ.totalGrossPremiumSign),
    totalCommissionCents: signedAmount(text, NACHSATZ.totalCommission, NACHSATZ.totalCommissionSign),
    claimsPaidCents: signedAmount(text, NACHSATZ.claimsPaid, NACHSATZ.claimsPaidSign),
    claimsCostsCents: signedAmount(text, NACHSATZ.claimsCosts, NACHSATZ.claimsCostsSign),
    line: part.line,
  };
}

/** What a package held, for comparison with its Nachsatz. */
export interface PackageTotals {
  partCount: number;
  netPremiumCents: number;
}

export function checkNachsatz(nachsatz: Nachsatz, totals: PackageTotals): NachsatzCheck[] {
  return [
    compare('record-count', nachsatz.recordCount, totals.partCount),
    compare('total-premium', nachsatz.totalPremiumCents, totals.netPremiumCents),
  ];
}

function compare(check: NachsatzCheck['check'], declared: number | null, computed: number): NachsatzCheck {
  return { check, declared, computed, ok: declared === computed };
}

export function nachsatzWarnings(nachsatz: Nachsatz, checks: NachsatzCheck[]): GdvWarning[] {
  return checks
    .filter((check) => !check.ok)
    .map((check) => warning('nachsatz-mismatch', [nachsatz.line], mismatchMessage(check)));
}

function mismatchMessage({ check, declared, computed }: NachsatzCheck): string {
  if (check === 'record-count') {
    const stated = declared === null ? 'no valid record count' : `${declared} records`;
    return `Nachsatz states ${stated}; the package has ${computed} Teildatensätze`;
  }
  const stated = declared === null ? 'no valid Gesamtbeitrag' : `Gesamtbeitrag ${formatCents(declared)}`;
  return `Nachsatz states ${stated}; the 0200 records sum to ${formatCents(computed)}`;
}

function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const absolute = Math.abs(cents);
  return `${sign}${Math.trunc(absolute / 100)}.${String(absolute % 100).padStart(2, '0')}`;
}
