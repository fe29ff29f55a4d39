import { CONTRACT_STATUSES, PAYMENT_MODES } from './code-tables.js';
import type { ImportContract, LineOfBusinessPart } from './entities.js';
import type { GdvWarning } from './events.js';
import { lineOfBusinessPremiumSpan, VERTRAGSTEIL_1, VERTRAGSTEIL_2 } from './layout.js';
import { PartReader } from './part-reader.js';
import { type GdvRecord, linesOf, partOf, type Teildatensatz } from './records.js';

/** Maps a 0200 record; `customerKey` is the key of the Versicherungsnehmer the caller found for it. */
export function mapContract(
  record: GdvRecord,
  customerKey: string | null,
  warnings: GdvWarning[],
): ImportContract {
  const first = new PartReader(partOf(record, 1), warnings);
  const second = new PartReader(partOf(record, 2), warnings);
  return {
    customerKey,
    vuNumber: record.vuNumber,
    sparte: record.sparte,
    bundled: record.bundled,
    policyNumber: record.policyNumber,
    sequenceNumber: record.sequenceNumber,
    broker: record.broker,
    status: first.code(VERTRAGSTEIL_1.status, CONTRACT_STATUSES, 'Vertragsstatus'),
    statusCode: first.text(VERTRAGSTEIL_1.status),
    startDate: first.date(VERTRAGSTEIL_1.start, 'Vertragsbeginn'),
    endDate: first.date(VERTRAGSTEIL_1.end, 'Vertragsablauf'),
    mainDueDate: first.date(VERTRAGSTEIL_1.mainDueDate, 'Hauptfälligkeit'),
    paymentMode: first.code(VERTRAGSTEIL_1.paymentMode, PAYMENT_MODES, 'Zahlungsweise'),
    paymentModeCode: first.text(VERTRAGSTEIL_1.paymentMode),
    netPremiumCents: first.cents(VERTRAGSTEIL_1.netPremium, 'Gesamtbeitrag (Netto)'),
    grossPremiumCents: second.cents(VERTRAGSTEIL_2.grossPremium, 'Gesamtbeitrag (Brutto)'),
    currency: first.text(VERTRAGSTEIL_1.currency),
    insurerCustomerNumber: first.text(VERTRAGSTEIL_1.insurerCustomerNumber),
    lineOfBusinessParts: [],
    lines: linesOf(record),
  };
}

/** Maps a 0210 record of the contract: its Sparte and, where the position is known, its premium. */
export function mapLineOfBusinessPart(record: GdvRecord, warnings: GdvWarning[]): LineOfBusinessPart {
  const premiumSpan = lineOfBusinessPremiumSpan(record.sparte);
  const first = new PartReader(firstPart(record), warnings);
  return {
    sparte: record.sparte,
    premiumCents: premiumSpan ? first.cents(premiumSpan, `Gesamtbeitrag 0210.${record.sparte}`) : null,
    lines: linesOf(record),
  };
}

/** Part 1, or the only part of a record whose producer wrote no part number. */
function firstPart(record: GdvRecord): Teildatensatz | undefined {
  const only = record.parts.length === 1 ? record.parts[0] : undefined;
  return partOf(record, 1) ?? (only && only.number === null ? only : undefined);
}
