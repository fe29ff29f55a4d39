import {
  chunked,
  collect,
  contract,
  customer,
  fileLines,
  joinLines,
  ofKind,
  readAll,
  setCharacter,
  singleContractFile,
  VORSATZ,
  writeFile,
} from '../test/fixtures.js';
import { DETECTION_PREFIX_BYTES } from './encoding.js';
import type { GdvEvent } from './events.js';
import { MAX_LINE_BYTES } from './physical-lines.js';
import { readGdvBatches } from './reader.js';

const recordsOf = (events: GdvEvent[]) => ofKind(events, 'record').map((event) => event.record);
const problemsOf = (events: GdvEvent[]) =>
  events.filter((event) => event.kind === 'warning' || event.kind === 'rejected');

/** Vorsatz 3, 0100 parts 1–2, 0200 parts 1–2, one 0210, Nachsatz: 9 lines. */
const SINGLE_CONTRACT_LINES = 9;

describe('packages', () => {
  it('reads several packages from one file, each with its Vorsatz, records and checked Nachsatz', async () => {
    const file = await writeFile(async (writer) => {
      await writer.startPackage(VORSATZ);
      await writer.writeCustomer(customer());
      await writer.writeContract(contract());
      await writer.endPackage();
      await writer.startPackage({ ...VORSATZ, vuNumber: '5512', broker: '123-00001' });
      await writer.writeContract(contract({ vuNumber: '5512', policyNumber: 'U1', netPremiumCents: 100 }));
      await writer.writeContract(contract({ vuNumber: '5512', policyNumber: 'U2', netPremiumCents: 250 }));
      await writer.endPackage();
    });
    const events = await readAll(file);
    expect(events.map((event) => event.kind)).toEqual([
      'encoding',
      ...['package-start', 'record', 'record', 'record', 'package-end'],
      ...['package-start', 'record', 'record', 'record', 'record', 'package-end'],
    ]);
    const [first, second] = ofKind(events, 'package-end');
    expect(first?.checks).toEqual([
      { check: 'record-count', declared: 5, computed: 5, ok: true },
      { check: 'total-premium', declared: 12345, computed: 12345, ok: true },
    ]);
    expect(second?.checks).toEqual([
      { check: 'record-count', declared: 6, computed: 6, ok: true },
      { check: 'total-premium', declared: 350, computed: 350, ok: true },
    ]);
    expect(ofKind(events, 'package-start').map((event) => event.vorsatz.vuNumber)).toEqual(['9999', '5512']);
    expect(second?.nachsatz).toMatchObject({ broker: '123-00001', line: 19 });
  });

  it.each([2, 3] as const)('reads a %i-line Vorsatz and leaves it out of the record count', async (parts) => {
    const events = await readAll(await singleContractFile({ vorsatzParts: parts }));
    const [start] = ofKind(events, 'package-start');
    expect(start?.vorsatz).toMatchObject({
      vuNumber: '9999',
      sender: 'Test Versicherung AG',
      recipient: 'Makler Mustermann',
      periodFrom: { iso: '2024-01-01', precision: 'day' },
      periodTo: { iso: '2024-01-31', precision: 'day' },
      broker: '1803012',
      versions: { vorsatz: '2.5', adressteil: '2.3', vertragsteil: '2.5', nachsatz: '1.1' },
      partCount: parts,
      lines: parts === 2 ? [1, 2] : [1, 2, 3],
    });
    expect(ofKind(events, 'package-end')[0]?.checks.every((check) => check.ok)).toBe(true);
    expect(problemsOf(events)).toEqual([]);
  });

  it('warns when the Nachsatz count or Gesamtbeitrag disagrees, without failing', async () => {
    const file = await writeFile(async (writer) => {
      await writer.startPackage(VORSATZ);
      await writer.writeContract(contract());
      await writer.endPackage({ recordCount: 7, totalPremiumCents: 99 });
    });
    const events = await readAll(file);
    expect(problemsOf(events)).toEqual([
      {
        kind: 'warning',
        code: 'nachsatz-mismatch',
        lines: [7],
        message: 'Nachsatz states 7 records; the package has 3 Teildatensätze',
      },
      {
        kind: 'warning',
        code: 'nachsatz-mismatch',
        lines: [7],
        message: 'Nachsatz states Gesamtbeitrag 0.99; the 0200 records sum to 123.45',
      },
    ]);
    expect(recordsOf(events)).toHaveLength(2);
  });

  it('closes a package without Nachsatz with a warning at its Vorsatz', async () => {
    const lines = fileLines(await singleContractFile());
    const events = await readAll(joinLines(lines.filter((line) => !line.startsWith('9999'))));
    expect(problemsOf(events)).toEqual([
      expect.objectContaining({ kind: 'warning', code: 'missing-nachsatz', lines: [1, 2, 3] }),
    ]);
    expect(events.at(-1)).toEqual({ kind: 'package-end', nachsatz: null, checks: [] });
  });

  it('keeps records outside a package with one warning per run', async () => {
    const lines = fileLines(await singleContractFile());
    const events = await readAll(joinLines(lines.slice(3)));
    expect(recordsOf(events)).toHaveLength(3);
    expect(problemsOf(events)).toEqual([
      expect.objectContaining({ code: 'outside-package', lines: [1, 2] }),
      expect.objectContaining({ code: 'nachsatz-without-vorsatz', lines: [6] }),
    ]);
  });
});

describe('line handling', () => {
  const snapshot = (events: GdvEvent[]) =>
    recordsOf(events).map((record) => record.parts.map((part) => [part.number, part.text]));

  it('reads LF, CRLF and a missing final line break alike', async () => {
    const lf = await readAll(await singleContractFile());
    const crlf = await readAll(await singleContractFile({ lineEnding: 'crlf' }));
    const noFinal = await readAll(await singleContractFile({ finalNewline: false }));
    const noFinalCrlf = await readAll(await singleContractFile({ lineEnding: 'crlf', finalNewline: false }));
    for (const other of [crlf, noFinal, noFinalCrlf]) {
      expect(snapshot(other)).toEqual(snapshot(lf));
      expect(ofKind(other, 'package-end')).toEqual(ofKind(lf, 'package-end'));
    }
    const texts = recordsOf(lf).flatMap((record) => record.parts.map((part) => part.text));
    expect(texts.every((text) => text.length === 256 && !text.includes('\r'))).toBe(true);
  });

  it('checks that the writer really varied the line breaks', async () => {
    const crlf = await singleContractFile({ lineEnding: 'crlf', finalNewline: false });
    expect(crlf.toString('latin1').split('\r\n')).toHaveLength(SINGLE_CONTRACT_LINES);
    expect(crlf.subarray(-2).toString('latin1')).not.toContain('\n');
  });

  it('skips blank lines but counts them in line numbers', async () => {
    const lines = fileLines(await singleContractFile());
    const withBlanks = [...lines.slice(0, 3), '', '   ', ...lines.slice(3, 5), '\r', ...lines.slice(5)];
    const events = await readAll(joinLines(withBlanks));
    expect(recordsOf(events).map((record) => record.parts.map((part) => part.line))).toEqual([
      [6, 7],
      [9, 10],
      [11],
    ]);
    expect(ofKind(events, 'package-end')[0]?.nachsatz?.line).toBe(12);
    expect(problemsOf(events)).toEqual([]);
  });

  it('pads lines whose trailing blanks were stripped', async () => {
    const lines = fileLines(await singleContractFile());
    // the 0210 line without a part number, as producers before 2009 wrote it, so that it ends in blanks
    lines[7] = setCharacter(lines[7] ?? '', 256, ' ');
    const stripped = lines.map((line) => line.trimEnd());
    // a Nachsatz cut after its Gesamtbeitrag, like the 24-byte one of opengdv's kranken.gdv
    stripped[8] = stripped[8]?.slice(0, 39) ?? '';
    expect(stripped.map((line) => line.length)).toEqual([256, 256, 256, 256, 256, 256, 256, 165, 39, 0]);
    const events = await readAll(joinLines(stripped));
    expect(snapshot(events)).toEqual(snapshot(await readAll(joinLines(lines))));
    expect(ofKind(events, 'package-end')[0]?.checks.every((check) => check.ok)).toBe(true);
  });

  it('gives the same result however the bytes are chunked', async () => {
    const file = await singleContractFile({ lineEnding: 'crlf', encoding: 'utf-8' });
    const whole = await readAll(file, {}, file.length);
    for (const chunkSize of [1, 2, 7, 255, 257]) expect(await readAll(file, {}, chunkSize)).toEqual(whole);
  });

  it('hands over the events of a chunk together: one array per chunk after the first 64 KiB', async () => {
    const file = await writeFile(async (writer) => {
      await writer.startPackage(VORSATZ);
      for (let n = 0; n < 200; n++) await writer.writeContract(contract({ policyNumber: `HP${n}` }));
      await writer.endPackage();
    });
    const chunkSize = 4096;
    expect(file.length).toBeGreaterThan(DETECTION_PREFIX_BYTES + 10 * chunkSize);
    const batches = await collect(readGdvBatches(chunked(file, chunkSize)));
    const chunksAfterHead = Math.ceil((file.length - DETECTION_PREFIX_BYTES) / chunkSize);
    // The head's chunks, each later chunk that completes a line, and the end.
    expect(batches.length).toBeLessThanOrEqual(1 + chunksAfterHead + 1);
    expect(batches.length).toBeGreaterThan(chunksAfterHead / 2);
    expect(batches.flat()).toEqual(await readAll(file, {}, chunkSize));
    expect(ofKind(batches.flat(), 'record')).toHaveLength(400); // a 0200 and a 0210 each
  });

  it('rejects lines that are too long, lack a Satzart or a required part number', async () => {
    const lines = fileLines(await singleContractFile());
    const edited = [
      ...lines.slice(0, 3),
      `${lines[3]}EXTRA`,
      `XXXX${lines[4]?.slice(4)}`,
      setCharacter(lines[5] ?? '', 256, ' '),
      'x'.repeat(MAX_LINE_BYTES + 10),
      ...lines.slice(6),
    ];
    const events = await readAll(joinLines(edited));
    expect(ofKind(events, 'rejected')).toEqual([
      {
        kind: 'rejected',
        code: 'line-too-long',
        lines: [4],
        message: 'line has 261 characters; a GDV record has 256',
      },
      {
        kind: 'rejected',
        code: 'invalid-satzart',
        lines: [5],
        message: 'line starts with "XXXX", not a 4-digit Satzart',
      },
      {
        kind: 'rejected',
        code: 'missing-part-number',
        lines: [6],
        message: 'Satzart 0200 line without a part number at byte 256',
      },
      {
        kind: 'rejected',
        code: 'line-too-long',
        lines: [7],
        message: `line has more than ${MAX_LINE_BYTES} bytes`,
      },
    ]);
    expect(recordsOf(events).map((record) => record.type)).toEqual(['0200.040', '0210.040']);
  });
});

describe('encodings', () => {
  const firstNames = async (file: Buffer, encoding?: 'cp850') => {
    const events = await readAll(file, encoding ? { encoding } : {});
    const [adressteil] = recordsOf(events);
    return { encoding: ofKind(events, 'encoding')[0], text: adressteil?.parts[0]?.text ?? '' };
  };

  it.each(['cp1252', 'latin1', 'cp850', 'utf-8'] as const)(
    'detects %s and decodes umlauts',
    async (encoding) => {
      const { encoding: event, text } = await firstNames(await singleContractFile({ encoding }));
      const expected = encoding === 'latin1' ? 'cp1252' : encoding;
      expect(event).toMatchObject({ kind: 'encoding', encoding: expected, detected: true });
      expect(text.slice(43, 73).trim()).toBe('Müller');
      expect(text.slice(162, 187).trim()).toBe('Köln');
      expect(text.slice(187, 217).trim()).toBe('Große Straße 1');
    },
  );

  it('slices UTF-8 lines by character though they are longer than 256 bytes', async () => {
    const file = await singleContractFile({ encoding: 'utf-8' });
    expect(Buffer.byteLength(fileLines(file)[3] ?? '', 'latin1')).toBe(256 + 5);
    const { text } = await firstNames(file);
    expect(text).toHaveLength(256);
    expect(text.slice(225, 233)).toBe('15031970');
    expect(text.charAt(255)).toBe('1');
  });

  it('uses the encoding option instead of the detection', async () => {
    const { encoding, text } = await firstNames(await singleContractFile({ encoding: 'cp1252' }), 'cp850');
    expect(encoding).toEqual({
      kind: 'encoding',
      encoding: 'cp850',
      detected: false,
      reason: 'set by the encoding option',
    });
    expect(text.slice(43, 73).trim()).toBe('M³ller');
  });

  it('warns about a file that mixes CP850 and Latin-1 umlauts', async () => {
    const lines = fileLines(await singleContractFile({ encoding: 'cp1252' }));
    lines[4] = setCharacter(lines[4] ?? '', 100, '\u0084');
    const events = await readAll(joinLines(lines));
    expect(problemsOf(events)).toEqual([
      {
        kind: 'warning',
        code: 'mixed-encoding',
        lines: [5],
        message:
          'the file mixes encodings: 1 umlaut bytes of cp850 (the first in this line) are read as cp1252',
      },
    ]);
  });

  it('flags bytes that are invalid in a forced UTF-8', async () => {
    const events = await readAll(await singleContractFile({ encoding: 'cp1252' }), { encoding: 'utf-8' });
    expect(problemsOf(events)).toContainEqual(
      expect.objectContaining({ code: 'invalid-characters', lines: [4] }),
    );
  });

  it('detects from the first 64 KiB only', async () => {
    const file = await writeFile(
      async (writer) => {
        await writer.startPackage(VORSATZ);
        for (let index = 0; index < 150; index++) {
          const plain = {
            name1: 'Meier',
            name3: 'Hans',
            city: 'Bonn',
            street: 'Weg 1',
            policyNumber: `P${index}`,
          };
          await writer.writeCustomer(customer(plain));
        }
        await writer.writeCustomer(customer());
        await writer.endPackage();
      },
      { encoding: 'utf-8' },
    );
    const events = await readAll(file);
    expect(ofKind(events, 'encoding')[0]?.encoding).toBe('cp1252');
    // read as CP1252, each of the five umlauts (2 bytes in UTF-8) of the last customer counts twice
    expect(ofKind(events, 'rejected')).toEqual([
      expect.objectContaining({
        code: 'line-too-long',
        lines: [304],
        message: expect.stringContaining('261 characters'),
      }),
    ]);
  });
});

describe('Teildatensatz grouping', () => {
  it('groups parts with gaps (1, 2, 4) and starts a new record when the number does not rise', async () => {
    const file = await writeFile(async (writer) => {
      await writer.startPackage(VORSATZ);
      await writer.writeCustomer(customer({ legalFormCode: '01' }));
      await writer.writeCustomer(customer());
      await writer.endPackage();
    });
    const lines = fileLines(file);
    lines[5] = setCharacter(lines[5] ?? '', 256, '4');
    const events = await readAll(joinLines(lines));
    expect(recordsOf(events).map((record) => record.parts.map((part) => [part.number, part.line]))).toEqual([
      [
        [1, 4],
        [2, 5],
        [4, 6],
      ],
      [
        [1, 7],
        [2, 8],
      ],
    ]);
  });

  it('starts a new record when bytes 1–42 differ', async () => {
    const lines = fileLines(await singleContractFile());
    lines[4] = setCharacter(lines[4] ?? '', 32, '2');
    const events = await readAll(joinLines(lines));
    expect(
      recordsOf(events).map((record) => [record.satzart, record.sequenceNumber, record.parts.length]),
    ).toEqual([
      ['0100', '01', 1],
      ['0100', '02', 1],
      ['0200', '01', 2],
      ['0210', '01', 1],
    ]);
  });

  it('reads the part number of 0210.130 at byte 251, where 252–256 hold the Objektnummer', async () => {
    const file = await writeFile(async (writer) => {
      await writer.startPackage(VORSATZ);
      await writer.writeContract(
        contract({ sparte: '130', lineOfBusinessParts: [{ sparte: '130', premiumCents: 9 }] }),
      );
      await writer.endPackage();
    });
    const lines = fileLines(file);
    const hausrat = `${(lines[5] ?? '').slice(0, 251)}00012`;
    const secondPart = setCharacter(setCharacter(hausrat, 251, '2'), 43, 'V');
    const events = await readAll(joinLines([...lines.slice(0, 5), hausrat, secondPart, ...lines.slice(6)]));
    const [, spartenteil] = recordsOf(events);
    expect(spartenteil?.type).toBe('0210.130');
    expect(spartenteil?.parts.map((part) => part.number)).toEqual([1, 2]);
  });

  it('groups 0220.030 parts 1, 2, 3 and 9 from their different positions', async () => {
    const lines = fileLines(await singleContractFile());
    const key = (lines[4] ?? '').slice(0, 42).replace('0100', '0220').replace(' 040', ' 030');
    const unfall = (fill: Record<number, string>) =>
      Object.entries(fill).reduce(
        (line, [position, value]) => setCharacter(line, Number(position), value),
        key.padEnd(256),
      );
    const parts = [
      unfall({ 49: '1' }),
      unfall({ 49: '2', 256: 'X' }),
      unfall({ 43: '3', 256: '1' }),
      unfall({ 60: '9' }),
    ];
    const events = await readAll(joinLines([...lines.slice(0, 3), ...parts, ...lines.slice(-2)]));
    const [record] = recordsOf(events);
    expect(record?.type).toBe('0220.030');
    expect(record?.parts.map((part) => part.number)).toEqual([1, 2, 3, 9]);
  });

  it('keeps unknown or insurer-specific Satzarten raw with a warning', async () => {
    const file = await writeFile(async (writer) => {
      await writer.startPackage(VORSATZ);
      await writer.writeLine(`08209999  040${'HP4711'.padStart(17)}011803012   Sonderdaten des Versicherers`);
      await writer.writeContract(contract());
      await writer.endPackage();
    });
    const events = await readAll(file);
    const [insurerSpecific] = recordsOf(events);
    expect(insurerSpecific).toMatchObject({ type: '0820.040', standard: false, policyNumber: 'HP4711' });
    expect(insurerSpecific?.parts[0]?.text.trim()).toContain('Sonderdaten des Versicherers');
    expect(problemsOf(events)).toEqual([
      {
        kind: 'warning',
        code: 'non-standard-satzart',
        lines: [4],
        message: 'Satzart 0820 is not a GDV standard Satzart (insurer-specific?); kept raw',
      },
    ]);
    expect(ofKind(events, 'package-end')[0]?.checks[0]).toMatchObject({ declared: 4, computed: 4, ok: true });
  });
});
