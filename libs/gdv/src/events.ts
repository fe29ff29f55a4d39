import type { GdvEncoding } from './encoding.js';
import type { GdvDate } from './fields.js';
import type { GdvRecord } from './records.js';

/** Satzart 0001, read from its first Teildatensatz. */
export interface Vorsatz {
  vuNumber: string;
  sender: string;
  recipient: string;
  periodFrom: GdvDate | null;
  periodTo: GdvDate | null;
  broker: string;
  /** Release versions as delivered (e.g. `2.5`); null when blank. */
  versions: {
    vorsatz: string | null;
    adressteil: string | null;
    vertragsteil: string | null;
    nachsatz: string | null;
  };
  partCount: number;
  lines: number[];
}

/** Satzart 9999. Amounts in cents; null where the field is blank or not a number. */
export interface Nachsatz {
  recordCount: number | null;
  broker: string;
  totalPremiumCents: number | null;
  totalGrossPremiumCents: number | null;
  totalCommissionCents: number | null;
  claimsPaidCents: number | null;
  claimsCostsCents: number | null;
  line: number;
}

/**
 * A comparison of a Nachsatz total with what the package holds (facts §3.4): `record-count` counts the
 * Teildatensätze between Vorsatz and Nachsatz; `total-premium` sums 0200 "Gesamtbeitrag (Netto)" in cents.
 */
export interface NachsatzCheck {
  check: 'record-count' | 'total-premium';
  declared: number | null;
  computed: number;
  ok: boolean;
}

export type GdvWarningCode =
  | 'mixed-encoding'
  | 'invalid-characters'
  | 'non-standard-satzart'
  | 'outside-package'
  | 'vorsatz-parts'
  | 'missing-nachsatz'
  | 'nachsatz-without-vorsatz'
  | 'nachsatz-mismatch'
  | 'invalid-field'
  | 'unknown-code'
  | 'missing-part'
  | 'no-policyholder';

export type GdvRejectionCode = 'line-too-long' | 'invalid-satzart' | 'missing-part-number' | 'missing-part';

export type GdvEvent =
  | { kind: 'encoding'; encoding: GdvEncoding; detected: boolean; reason: string }
  | { kind: 'package-start'; vorsatz: Vorsatz }
  | { kind: 'record'; record: GdvRecord }
  | { kind: 'package-end'; nachsatz: Nachsatz | null; checks: NachsatzCheck[] }
  | GdvWarning
  | GdvRejection;

/** Something odd that did not stop the import. `lines` are physical line numbers. */
export interface GdvWarning {
  kind: 'warning';
  code: GdvWarningCode;
  lines: number[];
  message: string;
}

/** Lines left out of the import. `lines` are physical line numbers. */
export interface GdvRejection {
  kind: 'rejected';
  code: GdvRejectionCode;
  lines: number[];
  message: string;
}

export function warning(code: GdvWarningCode, lines: number[], message: string): GdvWarning {
  return { kind: 'warning', code, lines, message };
}

export function rejection(code: GdvRejectionCode, lines: number[], message: string): GdvRejection {
  return { kind: 'rejected', code, lines, message };
}
