import { flatten } from './batches.js';
import { mapContract, mapLineOfBusinessPart } from './contract-mapping.js';
import type { ImportContract, ImportEntityEvent } from './entities.js';
import { type GdvEvent, type GdvWarning, rejection, warning } from './events.js';
import { VERTRAGSTEIL_1 } from './layout.js';
import { isPolicyholder, mapPerson, personKey, POLICYHOLDER_ROLE } from './person-mapping.js';
import { type GdvReadOptions, type GdvSource, readGdvBatches } from './reader.js';
import { type GdvRecord, linesOf, partOf } from './records.js';
import { PartReader } from './part-reader.js';

export type ImportEvent = GdvEvent | ImportEntityEvent;

/**
 * Adds import entities to the reader's events: each event passes through in order; a `customer` (0100 with
 * Adresskennzeichen 01) or `party` (other roles) follows its record, and a `contract` follows the last
 * record of its VSNr, so that the 0210 records after the 0200 can contribute their premiums.
 */
export function readImportEntities(
  source: GdvSource,
  options: GdvReadOptions = {},
): AsyncGenerator<ImportEvent> {
  return flatten(readImportEntityBatches(source, options));
}

/** `readImportEntities`' events, those of each chunk of the source in one array (see `readGdvBatches`). */
export async function* readImportEntityBatches(
  source: GdvSource,
  options: GdvReadOptions = {},
): AsyncGenerator<ImportEvent[]> {
  const mapper = new EntityMapper();
  for await (const events of readGdvBatches(source, options)) {
    const mapped: ImportEvent[] = [];
    for (const event of events) for (const entity of mapper.accept(event)) mapped.push(entity);
    yield mapped;
  }
  yield [...mapper.finish()];
}

interface Policyholder {
  vuNumber: string;
  policyNumber: string;
  key: string;
}

/** Holds at most one contract in progress and the last Versicherungsnehmer seen. */
export class EntityMapper {
  private pending: ImportContract | null = null;
  private policyholder: Policyholder | null = null;

  *accept(event: GdvEvent): Generator<ImportEvent> {
    if (event.kind === 'record') {
      yield* this.acceptRecord(event.record);
      return;
    }
    if (event.kind === 'package-start' || event.kind === 'package-end') {
      yield* this.flush();
      this.policyholder = null;
    }
    yield event;
  }

  *finish(): Generator<ImportEvent> {
    yield* this.flush();
  }

  private *acceptRecord(record: GdvRecord): Generator<ImportEvent> {
    if (this.pending && !belongsTo(record, this.pending)) yield* this.flush();
    yield { kind: 'record', record };
    const warnings: GdvWarning[] = [];
    if (record.satzart === '0100') yield* this.acceptPerson(record, warnings);
    else if (record.satzart === '0200') yield* this.startContract(record, warnings);
    else if (record.satzart === '0210' && this.pending) {
      this.pending.lineOfBusinessParts.push(mapLineOfBusinessPart(record, warnings));
    }
    yield* warnings;
  }

  private *acceptPerson(record: GdvRecord, warnings: GdvWarning[]): Generator<ImportEvent> {
    if (!partOf(record, 1)) {
      yield rejection('missing-part', linesOf(record), '0100 record without part 1; partner not imported');
      return;
    }
    const person = mapPerson(record, warnings);
    if (!isPolicyholder(person)) {
      yield { kind: 'party', party: person };
      return;
    }
    this.policyholder = { vuNumber: person.vuNumber, policyNumber: person.policyNumber, key: person.key };
    yield { kind: 'customer', customer: person };
  }

  private *startContract(record: GdvRecord, warnings: GdvWarning[]): Generator<ImportEvent> {
    yield* this.flush();
    if (!partOf(record, 1)) {
      yield rejection('missing-part', linesOf(record), '0200 record without part 1; contract not imported');
      return;
    }
    this.pending = mapContract(record, this.customerKeyFor(record, warnings), warnings);
  }

  /** The Versicherungsnehmer of the same VU and VSNr before it, else the Kundennummer in the 0200 itself. */
  private customerKeyFor(record: GdvRecord, warnings: GdvWarning[]): string | null {
    const holder = this.policyholder;
    if (holder && holder.vuNumber === record.vuNumber && holder.policyNumber === record.policyNumber) {
      return holder.key;
    }
    const customerNumber = new PartReader(partOf(record, 1), warnings).text(
      VERTRAGSTEIL_1.insurerCustomerNumber,
    );
    const lines = linesOf(record);
    const missing = 'no Versicherungsnehmer (0100 with Adresskennzeichen 01) precedes this contract';
    if (customerNumber === null) {
      warnings.push(warning('no-policyholder', lines, `${missing}; it has no customer`));
      return null;
    }
    warnings.push(warning('no-policyholder', lines, `${missing}; linked by the Kundennummer of the 0200`));
    return personKey(record, POLICYHOLDER_ROLE, customerNumber);
  }

  private *flush(): Generator<ImportEvent> {
    if (!this.pending) return;
    const contract = this.pending;
    this.pending = null;
    yield { kind: 'contract', contract };
  }
}

function belongsTo(record: GdvRecord, contract: ImportContract): boolean {
  return (
    record.vuNumber === contract.vuNumber &&
    record.policyNumber === contract.policyNumber &&
    record.sequenceNumber === contract.sequenceNumber
  );
}
