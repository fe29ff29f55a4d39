import {
  contract,
  customer,
  fileLines,
  importAll,
  joinLines,
  ofKind,
  setCharacter,
  singleContractFile,
  VORSATZ,
  writeFile,
} from '../test/fixtures.js';
import type { ContractInput, CustomerInput } from './writer.js';

async function importOne(
  customerInput: Partial<CustomerInput> = {},
  contractInput: Partial<ContractInput> = {},
) {
  const file = await writeFile(async (writer) => {
    await writer.startPackage(VORSATZ);
    await writer.writeCustomer(customer(customerInput));
    await writer.writeContract(contract(contractInput));
    await writer.endPackage();
  });
  return importAll(file);
}

/** Lines of singleContractFile(): 4–5 are the 0100, 6–7 the 0200, 8 the 0210. */
async function importEdited(edit: (lines: string[]) => void) {
  const lines = fileLines(await singleContractFile());
  edit(lines);
  return importAll(joinLines(lines));
}

const warningsOf = (events: Awaited<ReturnType<typeof importAll>>) => ofKind(events, 'warning');

describe('customers from 0100', () => {
  it('maps the Versicherungsnehmer with names, address, birth date and contacts', async () => {
    const events = await importOne({
      title: 'Dr.',
      name2: 'genannt Jupp',
      contacts: [
        { typeCode: '10', value: '0221 12345' },
        { typeCode: '30', value: '0170 99999' },
        { typeCode: '50', value: 'jm(a)example.com' },
        { typeCode: '20', value: '0221 777' },
        { typeCode: '52', value: 'jm§firma.example' },
      ],
    });
    expect(ofKind(events, 'customer').map((event) => event.customer)).toEqual([
      {
        key: 'kunde:9999:K100',
        role: 'versicherungsnehmer',
        roleCode: '01',
        vuNumber: '9999',
        policyNumber: 'HP4711',
        sparte: '040',
        insurerCustomerNumber: 'K100',
        brokerCustomerNumber: null,
        personType: 'natural',
        salutation: 'herr',
        title: 'Dr.',
        firstName: 'Jürgen',
        lastName: 'Müller',
        nameAddition: 'genannt Jupp',
        companyName: null,
        birthDate: { iso: '1970-03-15', precision: 'day' },
        gender: 'maennlich',
        nationality: null,
        address: {
          street: 'Große Straße 1',
          postalCode: '50667',
          city: 'Köln',
          postOfficeBox: null,
          countryCode: 'D',
          country: 'DE',
        },
        contacts: [
          { type: 'telefon', context: 'privat', code: '10', value: '0221 12345' },
          { type: 'mobil', context: null, code: '30', value: '0170 99999' },
          { type: 'email', context: null, code: '50', value: 'jm@example.com' },
          { type: 'telefon', context: 'geschaeftlich', code: '20', value: '0221 777' },
          { type: 'email', context: 'geschaeftlich', code: '52', value: 'jm@firma.example' },
        ],
        lines: [4, 5, 6],
      },
    ]);
    expect(warningsOf(events)).toEqual([]);
  });

  it.each([
    ['1', '1', undefined, 'herr', 'maennlich', 'natural'],
    ['2', '2', undefined, 'frau', 'weiblich', 'natural'],
    ['5', '2', undefined, 'fraeulein', 'weiblich', 'natural'],
    ['4', ' ', undefined, 'herr_und_frau', null, 'natural'],
    ['0', ' ', undefined, null, null, 'natural'],
    ['3', '0', undefined, 'firma', null, 'legal'],
    ['6', ' ', undefined, 'vereinigung', null, 'legal'],
    ['0', '0', undefined, null, null, 'legal'],
    ['1', '1', '05', 'herr', 'maennlich', 'legal'],
    ['3', ' ', '01', 'firma', null, 'natural'],
  ])(
    'translates Anrede %s / Geschlecht "%s" / Rechtsform %s to %s, %s, %s',
    async (salutationCode, genderCode, legalFormCode, salutation, gender, personType) => {
      const events = await importOne({
        salutationCode,
        genderCode,
        ...(legalFormCode ? { legalFormCode } : {}),
      });
      expect(ofKind(events, 'customer')[0]?.customer).toMatchObject({ salutation, gender, personType });
      expect(warningsOf(events)).toEqual([]);
    },
  );

  it('puts all name lines of a legal person into the company name', async () => {
    const events = await importOne({
      salutationCode: '3',
      genderCode: '0',
      name1: 'Beispiel GmbH',
      name2: '& Co. KG',
    });
    expect(ofKind(events, 'customer')[0]?.customer).toMatchObject({
      companyName: 'Beispiel GmbH & Co. KG Jürgen',
      firstName: null,
      lastName: null,
    });
  });

  it.each([
    ['D', 'DE'],
    ['UK', 'GB'],
    ['RUS', 'RU'],
    ['NMK', 'MK'],
    ['RCH', 'CL'],
    ['AM', 'AM'],
    ['XYZ', null],
  ])('reads the Länderkennzeichen %s as country %s', async (countryCode, country) => {
    const events = await importOne({ countryCode });
    expect(ofKind(events, 'customer')[0]?.customer.address).toMatchObject({ countryCode, country });
    const warned = warningsOf(events).map((event) => event.message);
    expect(warned).toEqual(country ? [] : [`Länderkennzeichen: unknown code "${countryCode}"`]);
  });

  it('returns null with a warning for unknown codes and impossible dates', async () => {
    const events = await importEdited((lines) => {
      lines[3] = setCharacter(setCharacter(lines[3] ?? '', 43, '9'), 255, '3');
      lines[3] = (lines[3] ?? '').slice(0, 225) + '31021970' + (lines[3] ?? '').slice(233);
    });
    expect(ofKind(events, 'customer')[0]?.customer).toMatchObject({
      salutation: null,
      gender: null,
      birthDate: null,
    });
    expect(warningsOf(events)).toEqual([
      { kind: 'warning', code: 'unknown-code', lines: [4], message: 'Anredeschlüssel: unknown code "9"' },
      {
        kind: 'warning',
        code: 'invalid-field',
        lines: [4],
        message: 'Geburtsdatum: "31021970" is not an existing date',
      },
      { kind: 'warning', code: 'unknown-code', lines: [4], message: 'Geschlecht: unknown code "3"' },
    ]);
  });

  it('keeps the precision of a birth date with unknown day', async () => {
    const events = await importEdited((lines) => {
      lines[3] = (lines[3] ?? '').slice(0, 225) + '00031970' + (lines[3] ?? '').slice(233);
    });
    expect(ofKind(events, 'customer')[0]?.customer.birthDate).toEqual({
      iso: '1970-03-01',
      precision: 'month',
    });
  });

  it('keys a customer without Kundennummer by VSNr and links its contract to it', async () => {
    const events = await importOne({ insurerCustomerNumber: '' });
    expect(ofKind(events, 'customer')[0]?.customer.key).toBe('vertrag:9999:HP4711:01');
    expect(ofKind(events, 'contract')[0]?.contract.customerKey).toBe('vertrag:9999:HP4711:01');
  });

  it('emits other roles as parties and links the contract to the Versicherungsnehmer', async () => {
    const file = await writeFile(async (writer) => {
      await writer.startPackage(VORSATZ);
      await writer.writeCustomer(customer());
      await writer.writeCustomer(customer({ roleCode: '09', name3: 'Erika', insurerCustomerNumber: 'K200' }));
      await writer.writeContract(contract());
      await writer.endPackage();
    });
    const events = await importAll(file);
    expect(ofKind(events, 'customer').map((event) => event.customer.key)).toEqual(['kunde:9999:K100']);
    expect(ofKind(events, 'party').map((event) => [event.party.role, event.party.firstName])).toEqual([
      ['versicherte_person', 'Erika'],
    ]);
    expect(ofKind(events, 'contract')[0]?.contract.customerKey).toBe('kunde:9999:K100');
  });
});

describe('contracts from 0200 and 0210', () => {
  it('maps dates, codes and premiums in integer cents', async () => {
    const events = await importOne();
    expect(ofKind(events, 'contract').map((event) => event.contract)).toEqual([
      {
        customerKey: 'kunde:9999:K100',
        vuNumber: '9999',
        sparte: '040',
        bundled: false,
        policyNumber: 'HP4711',
        sequenceNumber: '01',
        broker: '1803012',
        status: 'aktiv',
        statusCode: '1',
        startDate: { iso: '2020-01-01', precision: 'day' },
        endDate: { iso: '2025-01-01', precision: 'day' },
        mainDueDate: { iso: '2024-01-01', precision: 'day' },
        paymentMode: 'jaehrlich',
        paymentModeCode: '1',
        netPremiumCents: 12345,
        grossPremiumCents: 14691,
        currency: 'EUR',
        insurerCustomerNumber: 'K100',
        lineOfBusinessParts: [{ sparte: '040', premiumCents: 12345, lines: [8] }],
        lines: [6, 7],
      },
    ]);
  });

  it.each([
    ['1', 'jaehrlich'],
    ['2', 'halbjaehrlich'],
    ['4', 'vierteljaehrlich'],
    ['8', 'monatlich'],
    ['6', 'einmalig'],
    ['5', 'sonstige'],
    ['9', 'beitragsfrei'],
  ])('translates Zahlungsweise %s to %s', async (paymentModeCode, paymentMode) => {
    const events = await importOne({}, { paymentModeCode });
    expect(ofKind(events, 'contract')[0]?.contract.paymentMode).toBe(paymentMode);
  });

  it.each([
    ['1', 'aktiv'],
    ['2', 'aktiv_unterjaehrig'],
    ['3', 'ruhend'],
    ['4', 'storniert'],
    ['5', 'ruhend_beitragsfrei'],
    ['6', 'beitragsfrei'],
    ['7', 'beitragsfrei_durch_leistung'],
    ['8', 'beitragsstundung'],
    ['9', 'sonstiger'],
  ])('translates Vertragsstatus %s to %s', async (statusCode, status) => {
    const events = await importOne({}, { statusCode });
    expect(ofKind(events, 'contract')[0]?.contract.status).toBe(status);
  });

  it('accepts a blank Zahlungsweise, warns about unknown codes and reads 00 dates', async () => {
    const events = await importEdited((lines) => {
      const first = setCharacter(setCharacter(lines[5] ?? '', 68, ' '), 69, 'X');
      lines[5] = first.slice(0, 43) + '00002020' + '00122025' + first.slice(59);
    });
    expect(ofKind(events, 'contract')[0]?.contract).toMatchObject({
      paymentMode: null,
      paymentModeCode: null,
      status: null,
      statusCode: 'X',
      startDate: { iso: '2020-01-01', precision: 'year' },
      endDate: { iso: '2025-12-01', precision: 'month' },
    });
    expect(warningsOf(events)).toEqual([
      { kind: 'warning', code: 'unknown-code', lines: [6], message: 'Vertragsstatus: unknown code "X"' },
    ]);
  });

  it('maps a bundled contract (Sparte 000) with the premiums of its real Sparten', async () => {
    const bundle = { sparte: '000', bundled: true, policyNumber: 'B1' };
    const file = await writeFile(async (writer) => {
      await writer.startPackage(VORSATZ);
      await writer.writeCustomer(customer(bundle));
      await writer.writeContract(
        contract({
          ...bundle,
          netPremiumCents: 16685,
          lineOfBusinessParts: [
            { sparte: '040', premiumCents: 4700 },
            { sparte: '130', premiumCents: 11985 },
          ],
        }),
      );
      await writer.endPackage();
    });
    const events = await importAll(file);
    expect(ofKind(events, 'contract')[0]?.contract).toMatchObject({
      sparte: '000',
      bundled: true,
      policyNumber: 'B1',
      netPremiumCents: 16685,
      lineOfBusinessParts: [
        { sparte: '040', premiumCents: 4700, lines: [8] },
        { sparte: '130', premiumCents: 11985, lines: [9] },
      ],
    });
  });

  it('emits a contract after its last record and before the next customer', async () => {
    const file = await writeFile(async (writer) => {
      await writer.startPackage(VORSATZ);
      for (const policyNumber of ['A1', 'A2']) {
        await writer.writeCustomer(customer({ policyNumber }));
        await writer.writeContract(contract({ policyNumber }));
      }
      await writer.endPackage();
    });
    const kinds = (await importAll(file))
      .filter((event) => event.kind !== 'record' && event.kind !== 'encoding')
      .map((event) => (event.kind === 'contract' ? `contract ${event.contract.policyNumber}` : event.kind));
    expect(kinds).toEqual([
      'package-start',
      'customer',
      'contract A1',
      'customer',
      'contract A2',
      'package-end',
    ]);
  });

  it('links a contract without a preceding Versicherungsnehmer by its Kundennummer, with a warning', async () => {
    const events = await importEdited((lines) => lines.splice(3, 2));
    expect(ofKind(events, 'contract')[0]?.contract.customerKey).toBe('kunde:9999:K100');
    expect(warningsOf(events).map((event) => [event.code, event.lines])).toEqual([
      ['no-policyholder', [4, 5]],
      ['nachsatz-mismatch', [7]],
    ]);
  });

  it('rejects a 0200 without part 1', async () => {
    const events = await importEdited((lines) => lines.splice(5, 1));
    expect(ofKind(events, 'rejected')).toEqual([
      {
        kind: 'rejected',
        code: 'missing-part',
        lines: [6],
        message: '0200 record without part 1; contract not imported',
      },
    ]);
    expect(ofKind(events, 'contract')).toEqual([]);
  });
});
