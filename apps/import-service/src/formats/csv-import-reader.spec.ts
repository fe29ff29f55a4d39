import { Readable } from 'node:stream';
import { CsvFormatError, readCsvImport } from './csv-import-reader.js';
import { parseCents, parseDate } from './csv-values.js';
import type { ImportedEntityEvent } from './imported-entities.js';

const HEADER =
  'kundennummer;anrede;vorname;nachname;geburtsdatum;strasse;plz;ort;email;vu_nummer;sparte;vertragsnummer;status;beginn;zahlweise;nettobeitrag;bruttobeitrag';

/** The events of reading `content` in chunks, collected into `events` (so they are there should it throw). */
async function read(
  content: Buffer | string,
  chunkSize = 7,
  events: ImportedEntityEvent[] = [],
): Promise<ImportedEntityEvent[]> {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += chunkSize) {
    chunks.push(bytes.subarray(offset, offset + chunkSize));
  }
  for await (const batch of readCsvImport(Readable.from(chunks))) events.push(...batch);
  return events;
}

describe('readCsvImport', () => {
  it('reads a ;-separated UTF-8 file with BOM into a customer and a contract per row', async () => {
    const file = `\uFEFF${HEADER}\n4711;frau;Jülia;Müller;12.04.1985;Domstraße 12;50667;Köln;julia@example.com;9999;040;PH-1;aktiv;2022-01-01;jaehrlich;54,62;65,00\n`;
    const events = await read(file);
    expect(events).toEqual([
      {
        kind: 'customer',
        customer: {
          key: 'csv:4711',
          personType: 'natuerlich',
          salutation: 'frau',
          title: null,
          firstName: 'Jülia',
          lastName: 'Müller',
          companyName: null,
          birthDate: '1985-04-12',
          address: { street: 'Domstraße 12', postalCode: '50667', city: 'Köln', country: 'DE' },
          contacts: [{ type: 'email', value: 'julia@example.com', context: null }],
          line: 2,
        },
      },
      {
        kind: 'contract',
        contract: {
          customerKey: 'csv:4711',
          vuNumber: '9999',
          lineOfBusiness: '040',
          policyNumber: 'PH-1',
          status: 'aktiv',
          startDate: '2022-01-01',
          endDate: null,
          mainDueDate: null,
          paymentMode: 'jaehrlich',
          netPremiumCents: 5462,
          grossPremiumCents: 6500,
          currency: 'EUR',
          line: 2,
        },
      },
    ]);
  });

  it('reads a ,-separated ISO-8859-1 file with CRLF and quoted fields holding commas and line breaks', async () => {
    const file = Buffer.from(
      'kundennummer,personentyp,firma,strasse,vu_nummer,sparte,vertragsnummer,nettobeitrag\r\n' +
        '1,juristisch,"Weser Logistik GmbH, Bremen","Hafenstraße 1\r\nTor 3",5512,050,KFZ-9,"1.234,56"\r\n',
      'latin1',
    );
    const [customer, contract] = await read(file);
    expect(customer).toMatchObject({
      kind: 'customer',
      customer: {
        personType: 'juristisch',
        companyName: 'Weser Logistik GmbH, Bremen',
        address: { street: 'Hafenstraße 1\nTor 3' },
      },
    });
    expect(contract).toMatchObject({
      kind: 'contract',
      contract: { netPremiumCents: 123456, lineOfBusiness: '050', line: 2 },
    });
  });

  it('rejects faulty rows with their line and reason and imports the rest', async () => {
    const rows = [
      HEADER,
      '1;herr;Jürgen;Schmidt;30.11.1961;;;;;5512;030;UF-1;aktiv;;monatlich;16,81;20,00',
      '2;herr;Max;Muster;31.02.1980;;;;;5512;030;UF-2;aktiv;;;;',
      '3;herr;Max;;;;;;;5512;030;UF-3;aktiv;;;;',
      '4;herr;Max;Muster;;;;;;5512;030;UF-4;gekuendigt;;;;',
      '5;herr;Max;Muster;;;;;;5512;030;UF-5;aktiv;;;12,345;',
      '6;herr;Max;Muster;;;;;;5512;030;UF-6',
      '',
      '7;frau;Eva;Fuchs;;;;;eva-at-example;5512;030;UF-7;aktiv;;;;',
      '8;frau;Eva;Fuchs;;;;;;5512;30;UF-8;aktiv;;;;',
      '9;frau;Eva;Fuchs;;;;;;5512;030;UF-9;;;;;',
    ];
    const events = await read(rows.join('\n'));
    const rejected = events.filter((event) => event.kind === 'rejected');
    expect(rejected).toEqual([
      { kind: 'rejected', line: 3, message: 'geburtsdatum "31.02.1980" is not a calendar date' },
      { kind: 'rejected', line: 4, message: 'nachname is empty (natural person)' },
      {
        kind: 'rejected',
        line: 5,
        message: expect.stringMatching(/^status "gekuendigt" is not one of aktiv, /),
      },
      { kind: 'rejected', line: 6, message: 'nettobeitrag "12,345" is not an amount (for example 54,62)' },
      { kind: 'rejected', line: 7, message: 'Invalid Record Length: columns length is 17, got 12' },
      { kind: 'rejected', line: 9, message: 'email "eva-at-example" is not an e-mail address' },
      { kind: 'rejected', line: 10, message: 'sparte "30" is not a 3-digit GDV Sparte' },
    ]);
    const contracts = events.filter((event) => event.kind === 'contract');
    expect(contracts.map((event) => event.kind === 'contract' && event.contract.policyNumber)).toEqual([
      'UF-1',
      'UF-9',
    ]);
  });

  it('rejects a row whose quote is never closed at the line it starts on, naming the lines it swallowed', async () => {
    const events = await read(
      'kundennummer;vu_nummer;sparte;vertragsnummer;nachname\n' +
        '1;9999;040;A-1;"Muster\nMann"\n' +
        '2;9999;040;A-2;"Muster\n' +
        '3;9999;040;A-3;Muster\n' +
        '4;9999;040;A-4;Muster\n',
    );
    const contracts = events.flatMap((event) => (event.kind === 'contract' ? [event.contract] : []));
    expect(contracts.map((contract) => [contract.policyNumber, contract.line])).toEqual([['A-1', 2]]);
    expect(events.filter((event) => event.kind === 'rejected')).toEqual([
      {
        kind: 'rejected',
        line: 4,
        message: 'A quote opened on this line is never closed: lines 4-6 could not be read',
      },
    ]);
  });

  it('reports other quote errors at their own lines, and the rows an unclosed quote took along', async () => {
    const events = await read(
      'kundennummer;vu_nummer;sparte;vertragsnummer;nachname\n' +
        '1;9999;040;A-1;Muster\n' +
        '2;9999;040;A-2;"Mus"ter\n' +
        '3;9999;040;A-3;Muster\n' +
        '4;9999;040;A-4;"x"y\n' +
        '5;9999;040;A-5;Muster\n',
    );
    const contracts = events.flatMap((event) => (event.kind === 'contract' ? [event.contract] : []));
    expect(contracts.map((contract) => contract.policyNumber)).toEqual(['A-1']);
    expect(
      events.flatMap((event) => (event.kind === 'rejected' ? [[event.line, event.message]] : [])),
    ).toEqual([
      [3, expect.stringMatching(/^Invalid Closing Quote: /)],
      [3, 'A quote opened on this line is never closed: lines 3-6 could not be read'],
      [5, expect.stringMatching(/^Invalid Closing Quote: /)],
      [5, expect.stringMatching(/^Invalid Closing Quote: /)],
    ]);
  });

  it('takes an ISO 3166-1 alpha-2 country in any case and rejects a row naming the country otherwise', async () => {
    const events = await read(
      'kundennummer;nachname;land;vu_nummer;sparte;vertragsnummer\n' +
        '1;Muster;at;9999;040;X-1\n' +
        '2;Muster;Deutschland;9999;040;X-2\n' +
        '3;Muster;XX;9999;040;X-3\n',
    );
    const customers = events.flatMap((event) => (event.kind === 'customer' ? [event.customer] : []));
    expect(customers.map((customer) => customer.address.country)).toEqual(['AT']);
    expect(events.filter((event) => event.kind === 'rejected')).toEqual([
      { kind: 'rejected', line: 3, message: 'land "Deutschland" is not an ISO 3166-1 alpha-2 code' },
      { kind: 'rejected', line: 4, message: 'land "XX" is not an ISO 3166-1 alpha-2 code' },
    ]);
  });

  it('rejects a row holding a NUL character, naming the column, and imports the rest', async () => {
    const events = await read(
      'kundennummer;vu_nummer;sparte;vertragsnummer;nachname\n' +
        '9201;9999;040;PR-201;Gut\n' +
        '9202;9999;040;PR-202;N\u0000ul\n',
    );
    expect(events.map((event) => event.kind)).toEqual(['customer', 'contract', 'rejected']);
    expect(events[2]).toEqual({
      kind: 'rejected',
      line: 3,
      message: 'nachname contains a NUL character (byte 0x00)',
    });
  });

  it('refuses the file at a record too long to read on, after the rows before it', async () => {
    const file =
      'kundennummer;vu_nummer;sparte;vertragsnummer;nachname\n1;9999;040;A-1;Muster\n' +
      `2;9999;040;A-2;${'x'.repeat(100_000)}\n3;9999;040;A-3;Muster\n`;
    const events: ImportedEntityEvent[] = [];
    await expect(read(file, 1_000, events)).rejects.toThrow(
      new CsvFormatError(
        'Line 3 holds a record longer than 65536 bytes (an unterminated quote?); the file cannot be read past it',
      ),
    );
    expect(events.map((event) => event.kind)).toEqual(['customer', 'contract']);
  });

  it('fails, instead of waiting forever, when the file cannot be read to its end', async () => {
    const failing = new Readable({ read() {} });
    failing.push(Buffer.from(`${HEADER}\n4711;frau;Julia;Müller;;;;;;9999;040;PH-1;aktiv;;;;\n`));
    setTimeout(() => failing.destroy(new Error('disk read failed')), 20);
    const consume = async () => {
      for await (const batch of readCsvImport(failing))
        expect(batch.map((event) => event.kind)).not.toContain('rejected');
    };
    await expect(consume()).rejects.toThrow('disk read failed');
  });

  it.each([
    [
      'an unknown column',
      'kundennummer;vu_nummer;sparte;vertragsnummer;farbe\n1;9999;040;A;rot\n',
      'Unknown columns: farbe',
    ],
    [
      'a missing required column',
      'kundennummer;vu_nummer;sparte\n1;9999;040\n',
      'Missing required columns: vertragsnummer',
    ],
    [
      'a column named twice (in any case)',
      'kundennummer;vu_nummer;sparte;vertragsnummer;KUNDENNUMMER\n1;9999;040;A;2\n',
      'Columns named more than once: kundennummer',
    ],
  ])('refuses the whole file for %s', async (_case, file, message) => {
    await expect(read(file)).rejects.toThrow(new CsvFormatError(message));
  });
});

describe('CSV values', () => {
  it.each([
    ['54,62', 5462],
    ['54.62', 5462],
    ['1.234,56', 123456],
    ['1,234.56', 123456],
    ['7', 700],
    ['0,5', 50],
  ])('reads the amount %s as %i cents', (text, cents) => {
    expect(parseCents('betrag', text)).toBe(cents);
  });

  it.each(['-5', '1,2,3', 'abc', '5,123'])('refuses the amount %s', (text) => {
    expect(() => parseCents('betrag', text)).toThrow('is not an amount');
  });

  it('reads both date notations and refuses impossible dates', () => {
    expect(parseDate('d', '2024-02-29')).toBe('2024-02-29');
    expect(parseDate('d', '29.02.2024')).toBe('2024-02-29');
    expect(() => parseDate('d', '2023-02-29')).toThrow('not a calendar date');
    expect(() => parseDate('d', '2023/01/01')).toThrow('not a date');
  });
});
