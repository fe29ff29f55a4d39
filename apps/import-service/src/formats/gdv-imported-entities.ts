import {
  type ImportContract,
  type ImportEvent,
  type ImportPerson,
  readImportEntityBatches,
} from '@broker/gdv';
import type { ImportedContract, ImportedCustomer, ImportedEntityEvent } from './imported-entities.js';

const CONTACT_TYPES = { email: 'email', telefon: 'telefon', mobil: 'mobil', telefax: 'fax' } as const;

function customerOf(person: ImportPerson): ImportedCustomer {
  return {
    key: person.key,
    personType: person.personType === 'legal' ? 'juristisch' : 'natuerlich',
    salutation: person.salutation,
    title: person.title,
    firstName: person.firstName,
    lastName: person.lastName,
    companyName: person.companyName,
    birthDate: person.birthDate?.iso ?? null,
    address: {
      street: person.address.street,
      postalCode: person.address.postalCode,
      city: person.address.city,
      country: person.address.country ?? 'DE',
    },
    contacts: person.contacts.flatMap((contact) =>
      contact.type
        ? [{ type: CONTACT_TYPES[contact.type], value: contact.value, context: contact.context }]
        : [],
    ),
    line: person.lines[0] ?? 0,
  };
}

/** A bundled contract keeps Sparte 000; its real Sparten are in the GDV file's 0210 records. */
function contractOf(contract: ImportContract, customerKey: string): ImportedContract {
  return {
    customerKey,
    vuNumber: contract.vuNumber,
    lineOfBusiness: contract.sparte,
    policyNumber: contract.policyNumber,
    status: contract.status ?? 'sonstiger',
    startDate: contract.startDate?.iso ?? null,
    endDate: contract.endDate?.iso ?? null,
    mainDueDate: contract.mainDueDate?.iso ?? null,
    paymentMode: contract.paymentMode,
    netPremiumCents: contract.netPremiumCents,
    grossPremiumCents: contract.grossPremiumCents,
    currency: contract.currency ?? 'EUR',
    line: contract.lines[0] ?? 0,
  };
}

function toImported(event: ImportEvent): ImportedEntityEvent[] {
  switch (event.kind) {
    case 'customer':
      return [{ kind: 'customer', customer: customerOf(event.customer) }];
    case 'contract': {
      const line = event.contract.lines[0] ?? 0;
      if (!event.contract.customerKey) {
        return [
          {
            kind: 'rejected',
            line,
            message: `Contract ${event.contract.policyNumber} names no policyholder`,
          },
        ];
      }
      return [{ kind: 'contract', contract: contractOf(event.contract, event.contract.customerKey) }];
    }
    case 'warning':
    case 'rejected':
      return [{ kind: event.kind, line: event.lines[0] ?? 0, message: event.message }];
    default:
      // Other roles (insured persons, payers ...) and the reader's structural events are not written.
      return [];
  }
}

/** A GDV file as the import's customers and contracts, those of each chunk of the file in one array. */
export async function* readGdvImport(
  source: AsyncIterable<Uint8Array>,
): AsyncGenerator<ImportedEntityEvent[]> {
  for await (const events of readImportEntityBatches(source)) yield events.flatMap(toImported);
}
