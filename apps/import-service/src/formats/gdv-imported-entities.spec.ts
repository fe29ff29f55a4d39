import { Readable } from 'node:stream';
import type { CustomerInput } from '@broker/gdv';
import { writeGdvFile } from '@broker/testing';
import { readGdvImport } from './gdv-imported-entities.js';
import type { ImportedEntityEvent } from './imported-entities.js';

/** A Versicherungsnehmer with only the fields the writer requires. */
const CUSTOMER = {
  vuNumber: '9999',
  sparte: '040',
  policyNumber: 'P1',
  broker: '1803012',
  salutationCode: '1',
};

async function importCustomer(overrides: Partial<CustomerInput>): Promise<ImportedEntityEvent[]> {
  const file = await writeGdvFile((writer) =>
    writer.writeCustomer({ ...CUSTOMER, name1: 'Müller', ...overrides }),
  );
  const events: ImportedEntityEvent[] = [];
  for await (const batch of readGdvImport(Readable.from([file]))) events.push(...batch);
  return events;
}

describe('readGdvImport', () => {
  it('keeps a customer with an unknown Länderkennzeichen, stored with DE and a warning at its line', async () => {
    const events = await importCustomer({ countryCode: 'XYZ' });
    const customer = events.find((event) => event.kind === 'customer');
    expect(customer?.kind === 'customer' && customer.customer.address.country).toBe('DE');
    expect(events).toContainEqual({
      kind: 'warning',
      line: customer?.kind === 'customer' ? customer.customer.line : -1,
      message: 'Länderkennzeichen: unknown code "XYZ"',
    });
  });

  it.each([
    ['A', 'AT'],
    ['', 'DE'],
  ])('maps the Länderkennzeichen "%s" to %s without a warning', async (countryCode, country) => {
    const events = await importCustomer({ countryCode });
    expect(events.find((event) => event.kind === 'customer')).toMatchObject({
      customer: { address: { country } },
    });
    expect(events.filter((event) => event.kind === 'warning')).toEqual([]);
  });
});
