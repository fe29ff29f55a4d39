import { Writable } from 'node:stream';
import { GdvWriter } from '@broker/gdv';

export interface GdvPortfolioOptions {
  contracts: number;
  /** Each customer holds this many consecutive contracts; default 2. */
  contractsPerCustomer?: number;
  vuNumber?: string;
  /** Vermittlernummer in the records; default 1803012. */
  broker?: string;
  /** Prefix of the policy numbers, so two portfolios do not share contracts; default `P`. */
  policyPrefix?: string;
}

const LAST_NAMES = [
  'Müller',
  'Schmidt',
  'Schneider',
  'Fischer',
  'Weber',
  'Meyer',
  'Wagner',
  'Becker',
  'Schulz',
];
const FIRST_NAMES = ['Julia', 'Jürgen', 'Anna', 'Lukas', 'Marie', 'Paul', 'Sophie', 'Felix', 'Emma', 'Jonas'];
const CITIES = [
  { postalCode: '50667', city: 'Köln' },
  { postalCode: '80331', city: 'München' },
  { postalCode: '20095', city: 'Hamburg' },
  { postalCode: '10115', city: 'Berlin' },
  { postalCode: '70173', city: 'Stuttgart' },
];
/** Privathaftpflicht and Hausrat: the Sparten whose 0210 premium position the writer knows. */
const SPARTEN = ['040', '130'];

const pick = <T>(values: readonly T[], index: number): T => values[index % values.length];

/**
 * Writes a synthetic GDV portfolio of one insurer: customers (0100 before each of their contracts, as insurers
 * send them) with addresses, birth dates and some e-mail addresses, and contracts (0200 + 0210) with varied
 * Sparten, payment modes and premiums. Deterministic: the same options give the same bytes.
 */
export async function writeGdvPortfolio(out: Writable, options: GdvPortfolioOptions): Promise<void> {
  const vuNumber = options.vuNumber ?? '9999';
  const broker = options.broker ?? '1803012';
  const perCustomer = options.contractsPerCustomer ?? 2;
  const prefix = options.policyPrefix ?? 'P';
  const writer = new GdvWriter(out);
  await writer.startPackage({
    vuNumber,
    sender: 'Synthetische Versicherung AG',
    recipient: 'Makler Mustermann',
    periodFrom: '2026-01-01',
    periodTo: '2026-01-31',
    broker,
  });
  for (let index = 0; index < options.contracts; index++) {
    const customerNo = Math.floor(index / perCustomer);
    const sparte = pick(SPARTEN, index);
    const policyNumber = `${prefix}${String(index).padStart(8, '0')}`;
    const premiumCents = 4_000 + ((index * 7_919) % 20_000);
    const key = { vuNumber, sparte, policyNumber, broker };
    await writer.writeCustomer({
      ...key,
      salutationCode: customerNo % 2 === 0 ? '1' : '2',
      name1: pick(LAST_NAMES, customerNo),
      name3: pick(FIRST_NAMES, customerNo),
      countryCode: 'D',
      ...pick(CITIES, customerNo),
      street: `Hauptstraße ${(customerNo % 200) + 1}`,
      birthDate: `19${50 + (customerNo % 50)}-0${(customerNo % 9) + 1}-1${customerNo % 10}`,
      insurerCustomerNumber: `K${customerNo}`,
      contacts: customerNo % 3 === 0 ? [{ typeCode: '50', value: `kunde${customerNo}@example.com` }] : [],
    });
    await writer.writeContract({
      ...key,
      statusCode: '1',
      startDate: '2024-01-01',
      mainDueDate: '2026-01-01',
      paymentModeCode: pick(['1', '2', '4', '8'], index),
      netPremiumCents: premiumCents,
      grossPremiumCents: Math.round(premiumCents * 1.19),
      insurerCustomerNumber: `K${customerNo}`,
      lineOfBusinessParts: [{ sparte, premiumCents }],
    });
  }
  await writer.endPackage();
  await writer.end();
}

/** A one-package GDV file of insurer 9999 (broker 1803012, January 2026) with the records `write` adds. */
export async function writeGdvFile(write: (writer: GdvWriter) => Promise<void>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  const writer = new GdvWriter(sink);
  await writer.startPackage({
    vuNumber: '9999',
    sender: 'Test Versicherung AG',
    recipient: 'Makler',
    periodFrom: '2026-01-01',
    periodTo: '2026-01-31',
    broker: '1803012',
  });
  await write(writer);
  await writer.endPackage();
  await writer.end();
  return Buffer.concat(chunks);
}
