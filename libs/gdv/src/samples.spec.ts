import { createReadStream } from 'node:fs';
import path from 'node:path';
import { collect, ofKind, SAMPLES_DIR, samplesPresent } from '../test/fixtures.js';
import { type ImportEvent, readImportEntities } from './entity-mapper.js';

/*
 * The expected numbers were derived with shell tools over the files, not from this reader (run in
 * ../shared/gdv-samples):
 *   lines per Satzart:  tr -d '\r' < FILE | cut -c1-4 | sort | uniq -c
 *   records per Satzart: an awk script that groups consecutive lines with equal bytes 1-42 and a rising part
 *     number, reading the part number at the facts' positions (§2.4) – written separately from part-number.ts
 *   packages, customers, contracts, codes, sums:
 *     awk '/^0001/ && substr($0,256,1)=="1" {packages++}
 *          /^0100/ && substr($0,256,1)=="1" && substr($0,237,2)=="01" {customers++; a=substr($0,43,1);
 *            g=substr($0,255,1); if (a=="3"||a=="6"||g=="0") legal++}
 *          /^0200/ && substr($0,256,1)=="1" {contracts++; net+=substr($0,116,12); zw[substr($0,68,1)]++;
 *            st[substr($0,69,1)]++; if (substr($0,10,1)=="1") bundled++}'
 *   distinct customers: Kundennummer (0100 part 2, bytes 43-59) per VU of the 0100 records with role 01,
 *     the VSNr where it is blank, through sort -u
 *   Nachsatz per package: lines between the Vorsatz lines and the 9999 line vs substr($0,5,10), and
 *     substr($0,25,15) vs the sum of 0200 bytes 116-127 of the package.
 */

interface Summary {
  encoding: string | undefined;
  packages: number;
  vorsatzParts: number[];
  recordsBySatzart: Record<string, number>;
  customers: number;
  distinctCustomers: number;
  legalCustomers: number;
  contracts: number;
  bundledContracts: number;
  netPremiumCents: number;
  paymentModes: Record<string, number>;
  statuses: Record<string, number>;
  contractsWithoutCustomer: number;
  problems: { kind: string; code: string; lines: number[]; message: string }[];
}

function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

function summarize(events: ImportEvent[]): Summary {
  const customers = ofKind(events, 'customer').map((event) => event.customer);
  const contracts = ofKind(events, 'contract').map((event) => event.contract);
  const customerKeys = new Set(customers.map((customer) => customer.key));
  return {
    encoding: ofKind(events, 'encoding')[0]?.encoding,
    packages: ofKind(events, 'package-start').length,
    vorsatzParts: [...new Set(ofKind(events, 'package-start').map((event) => event.vorsatz.partCount))],
    recordsBySatzart: countBy(ofKind(events, 'record').map((event) => event.record.satzart)),
    customers: customers.length,
    distinctCustomers: customerKeys.size,
    legalCustomers: customers.filter((customer) => customer.personType === 'legal').length,
    contracts: contracts.length,
    bundledContracts: contracts.filter((contract) => contract.bundled).length,
    netPremiumCents: contracts.reduce((sum, contract) => sum + (contract.netPremiumCents ?? 0), 0),
    paymentModes: countBy(contracts.map((contract) => contract.paymentMode ?? 'null')),
    statuses: countBy(contracts.map((contract) => contract.status ?? 'null')),
    contractsWithoutCustomer: contracts.filter((contract) => !customerKeys.has(contract.customerKey ?? ''))
      .length,
    problems: events.flatMap((event) =>
      event.kind === 'warning' || event.kind === 'rejected'
        ? [{ kind: event.kind, code: event.code, lines: event.lines, message: event.message }]
        : [],
    ),
  };
}

function importSample(name: string): Promise<ImportEvent[]> {
  return collect(readImportEntities(createReadStream(path.join(SAMPLES_DIR, name), { highWaterMark: 4096 })));
}

if (!samplesPresent) console.warn(`Skipping the GDV sample file tests: ${SAMPLES_DIR} does not exist.`);
const describeSamples = samplesPresent ? describe : describe.skip;

describeSamples('real sample files', () => {
  describe('musterdatei_041222.gdv (GDV 2004, LF, ISO-8859-1, 2-line Vorsatz)', () => {
    let events: ImportEvent[];
    beforeAll(async () => {
      events = await importSample('musterdatei_041222.gdv');
    });

    it('has the expected packages, records, customers and contracts', () => {
      expect(summarize(events)).toEqual({
        encoding: 'cp1252',
        packages: 1,
        vorsatzParts: [2],
        recordsBySatzart: { '0100': 14, '0200': 14, '0210': 15, '0211': 11, '0220': 44, '0221': 31 },
        customers: 14,
        distinctCustomers: 10,
        legalCustomers: 0,
        contracts: 14,
        bundledContracts: 1,
        netPremiumCents: 480600,
        paymentModes: { jaehrlich: 9, halbjaehrlich: 2, einmalig: 1, monatlich: 2 },
        statuses: { aktiv: 14 },
        contractsWithoutCustomer: 0,
        problems: [],
      });
    });

    it('has a consistent Nachsatz: 162 records, Gesamtbeitrag 4806.00', () => {
      expect(ofKind(events, 'package-end')).toEqual([
        expect.objectContaining({
          nachsatz: expect.objectContaining({ recordCount: 162, totalPremiumCents: 480600, line: 165 }),
          checks: [
            { check: 'record-count', declared: 162, computed: 162, ok: true },
            { check: 'total-premium', declared: 480600, computed: 480600, ok: true },
          ],
        }),
      ]);
    });

    it('decodes Latin-1 umlauts and the (a) e-mail notation', () => {
      const [first] = ofKind(events, 'customer');
      expect(first?.customer).toMatchObject({
        lastName: 'Kitzelpfütze',
        firstName: 'Martina',
        salutation: 'frau',
      });
      const emails = ofKind(events, 'customer').flatMap((event) =>
        event.customer.contacts.filter((contact) => contact.type === 'email').map((contact) => contact.value),
      );
      expect(emails).toContain('polly@example.com');
      expect(emails.some((email) => email.includes('(a)'))).toBe(false);
    });

    it('maps the bundled contract of lines 150–164 with its Sparten 040 and 130', () => {
      const bundled = ofKind(events, 'contract').find((event) => event.contract.bundled)?.contract;
      expect(bundled).toMatchObject({
        sparte: '000',
        policyNumber: '59999999986',
        netPremiumCents: 16685,
        customerKey: 'kunde:9999:USKGGG',
        lineOfBusinessParts: [
          { sparte: '040', premiumCents: 4700, lines: [154] },
          { sparte: '130', premiumCents: 11985, lines: [159] },
        ],
        lines: [153],
      });
    });
  });

  describe('multi_package_15.gdv (15 packages, LF, ISO-8859-1, 3-line Vorsatz)', () => {
    let events: ImportEvent[];
    beforeAll(async () => {
      events = await importSample('multi_package_15.gdv');
    });

    it('has the expected packages, records, customers and contracts', () => {
      expect(summarize(events)).toEqual({
        encoding: 'cp1252',
        packages: 15,
        vorsatzParts: [3],
        recordsBySatzart: { '0100': 94, '0200': 94, '0210': 122, '0220': 336, '0221': 15, '0230': 95 },
        customers: 94,
        distinctCustomers: 43,
        legalCustomers: 24,
        contracts: 94,
        bundledContracts: 0,
        netPremiumCents: 9404581,
        paymentModes: {
          jaehrlich: 67,
          halbjaehrlich: 1,
          vierteljaehrlich: 2,
          monatlich: 18,
          beitragsfrei: 6,
        },
        statuses: { aktiv: 87, aktiv_unterjaehrig: 1, storniert: 4, beitragsfrei_durch_leistung: 2 },
        contractsWithoutCustomer: 0,
        // two Nachsätze state more records than their packages hold (awk: 21 and 30 lines)
        problems: [
          {
            kind: 'warning',
            code: 'nachsatz-mismatch',
            lines: [600],
            message: 'Nachsatz states 22 records; the package has 21 Teildatensätze',
          },
          {
            kind: 'warning',
            code: 'nachsatz-mismatch',
            lines: [1557],
            message: 'Nachsatz states 32 records; the package has 30 Teildatensätze',
          },
        ],
      });
    });

    it('matches every Gesamtbeitrag and 13 of the 15 record counts', () => {
      const checks = ofKind(events, 'package-end').map((event) => event.checks);
      expect(checks.map(([count]) => count?.ok)).toEqual([
        ...Array(8).fill(true),
        false,
        ...Array(5).fill(true),
        false,
      ]);
      expect(checks.every(([, sum]) => sum?.ok)).toBe(true);
      expect(checks.map(([count]) => count?.computed)).toEqual([
        154, 11, 263, 14, 11, 13, 44, 33, 21, 653, 10, 161, 41, 38, 30,
      ]);
    });

    it('keeps the Vorsatz VU number apart from the records’ VU number', () => {
      const [first] = ofKind(events, 'package-start');
      expect(first?.vorsatz).toMatchObject({
        vuNumber: '4001',
        sender: 'Pfefferminzia a.G.',
        broker: '1803012',
      });
      expect(ofKind(events, 'contract')[0]?.contract.vuNumber).toBe('9090');
    });

    it('turns the § in e-mail addresses into @', () => {
      const emails = ofKind(events, 'customer').flatMap((event) =>
        event.customer.contacts.filter((contact) => contact.type === 'email').map((contact) => contact.value),
      );
      expect(emails).toContain('Klausi@Mausi.de');
      expect(emails.some((email) => email.includes('§'))).toBe(false);
    });
  });

  describe('unfall_crlf_inkasso.gdv (CRLF, company customer, Inkasso records)', () => {
    let events: ImportEvent[];
    beforeAll(async () => {
      events = await importSample('unfall_crlf_inkasso.gdv');
    });

    it('has the expected records, one company customer and one contract', () => {
      expect(summarize(events)).toEqual({
        encoding: 'cp1252',
        packages: 1,
        vorsatzParts: [2],
        recordsBySatzart: { '0100': 1, '0200': 1, '0210': 1, '0220': 4, '0400': 1, '0410': 1 },
        customers: 1,
        distinctCustomers: 1,
        legalCustomers: 1,
        contracts: 1,
        bundledContracts: 0,
        netPremiumCents: 12680,
        paymentModes: { monatlich: 1 },
        statuses: { aktiv: 1 },
        contractsWithoutCustomer: 0,
        problems: [
          {
            kind: 'warning',
            code: 'nachsatz-mismatch',
            lines: [17],
            message: 'Nachsatz states Gesamtbeitrag 17200.80; the 0200 records sum to 126.80',
          },
        ],
      });
    });

    it('maps the company and its contract', () => {
      expect(ofKind(events, 'customer')[0]?.customer).toMatchObject({
        key: 'vertrag:5512:1122334455:01',
        salutation: 'firma',
        personType: 'legal',
        companyName: 'Beispielkunden GmbH',
        birthDate: null,
        address: { street: 'Am Schlossplatz 25', postalCode: '68000', city: 'Mannheim', country: 'DE' },
      });
      expect(ofKind(events, 'contract')[0]?.contract).toMatchObject({
        customerKey: 'vertrag:5512:1122334455:01',
        vuNumber: '5512',
        policyNumber: '1122334455',
        broker: '789-00001',
        startDate: { iso: '1989-07-13', precision: 'day' },
        endDate: { iso: '2010-07-13', precision: 'day' },
        mainDueDate: { iso: '2010-07-13', precision: 'day' },
        netPremiumCents: 12680,
        grossPremiumCents: null,
        currency: 'EUR',
      });
      expect(ofKind(events, 'package-start')[0]?.vorsatz.broker).toBe('123-00001');
    });

    it('checks the count (14) and reports the Gesamtbeitrag mismatch', () => {
      expect(ofKind(events, 'package-end')[0]?.checks).toEqual([
        { check: 'record-count', declared: 14, computed: 14, ok: true },
        { check: 'total-premium', declared: 1720080, computed: 12680, ok: false },
      ]);
    });
  });
});
