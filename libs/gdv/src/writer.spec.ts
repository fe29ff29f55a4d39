import { Writable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import {
  chunked,
  collect,
  contract,
  customer,
  fileLines,
  readAll,
  singleContractFile,
  VORSATZ,
  writeFile,
} from '../test/fixtures.js';
import { GdvWriter } from './writer.js';
import { readImportEntities } from './entity-mapper.js';

describe('GdvWriter', () => {
  it('puts every field at its GDV position', async () => {
    const lines = fileLines(await singleContractFile());
    expect(lines.slice(0, -1).map((line) => line.length)).toEqual(Array(9).fill(256));
    expect(lines.at(-1)).toBe('');
    const [vorsatz, , , adressteil, , vertragsteil, , spartenteil, nachsatz] = lines;
    expect(vorsatz?.slice(0, 95)).toBe(
      '00019999 Test Versicherung AG          Makler Mustermann             0101202431012024' + '1803012   ',
    );
    expect(vorsatz?.slice(95, 104)).toBe('2.52.32.5');
    expect(vorsatz?.charAt(255)).toBe('1');
    expect(adressteil?.slice(0, 42)).toBe('01009999  040' + '           HP4711' + '01' + '1803012   ');
    expect(adressteil?.slice(42, 44)).toBe('1M');
    expect(adressteil?.slice(225, 238)).toBe('15031970' + '   ' + '01');
    expect(vertragsteil?.slice(43, 69)).toBe('01012020' + '01012025' + '01012024' + '1' + '1');
    expect(vertragsteil?.slice(112, 127)).toBe('EUR000000012345');
    expect(spartenteil?.slice(153, 165)).toBe('000000012345');
    expect(nachsatz).toBe(
      '9999' +
        '0000000005' +
        '1803012   ' +
        '000000000012345' +
        '00000000000000+'.repeat(4) +
        ' '.repeat(157),
    );
  });

  it('streams: writes in batches and waits for a slow stream to drain', async () => {
    const writes: number[] = [];
    const slow = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _encoding, done) {
        writes.push(chunk.length);
        void delay(1).then(() => done());
      },
    });
    const writer = new GdvWriter(slow);
    await writer.startPackage(VORSATZ);
    for (let index = 0; index < 500; index++) {
      await writer.writeCustomer(customer({ policyNumber: `P${index}` }));
      await writer.writeContract(contract({ policyNumber: `P${index}` }));
    }
    await writer.endPackage();
    await writer.end();
    const lineCount = 3 + 500 * 5 + 1;
    expect(writes.reduce((sum, length) => sum + length, 0)).toBe(lineCount * 257);
    expect(writes.length).toBeGreaterThan(5);
    expect(Math.max(...writes)).toBeLessThan(70 * 1024);
  });

  it('writes files the reader takes without a warning', async () => {
    const file = await writeFile(async (writer) => {
      await writer.startPackage(VORSATZ);
      for (let index = 0; index < 50; index++) {
        await writer.writeCustomer(
          customer({ policyNumber: `P${index}`, insurerCustomerNumber: `K${index % 7}` }),
        );
        await writer.writeContract(contract({ policyNumber: `P${index}`, netPremiumCents: index * 101 }));
      }
      await writer.endPackage();
    });
    const events = await collect(readImportEntities(chunked(file)));
    expect(events.filter((event) => event.kind === 'warning' || event.kind === 'rejected')).toEqual([]);
    expect(events.filter((event) => event.kind === 'contract')).toHaveLength(50);
    expect(events.find((event) => event.kind === 'package-end')).toMatchObject({
      checks: [
        { check: 'record-count', declared: 250, computed: 250, ok: true },
        { check: 'total-premium', declared: 123725, computed: 123725, ok: true },
      ],
    });
  });

  it('refuses what it cannot write correctly', async () => {
    await expect(
      writeFile(async (writer) => {
        await writer.writeCustomer(customer());
      }),
    ).rejects.toThrow('write a Vorsatz (startPackage) first');
    await expect(
      writeFile(async (writer) => {
        await writer.startPackage(VORSATZ);
        await writer.writeContract(contract({ lineOfBusinessParts: [{ sparte: '030', premiumCents: 1 }] }));
      }),
    ).rejects.toThrow('no known premium position in 0210 for Sparte 030');
    await expect(
      writeFile(async (writer) => {
        await writer.startPackage(VORSATZ);
        await writer.writeContract(contract({ lineOfBusinessParts: [{ sparte: '080' }] }));
      }),
    ).rejects.toThrow('the writer has no 0210 layout for Sparte 080');
    await expect(
      writeFile(async (writer) => {
        await writer.startPackage(VORSATZ);
        await writer.writeContract(contract({ netPremiumCents: 12.5 }));
      }),
    ).rejects.toThrow(RangeError);
    await expect(writeFile((writer) => writer.startPackage(VORSATZ))).rejects.toThrow(
      'the last package has no Nachsatz',
    );
  });

  it('ends an empty file without a line break', async () => {
    expect(await writeFile(() => Promise.resolve())).toEqual(Buffer.alloc(0));
    expect(await readAll(Buffer.alloc(0))).toEqual([
      {
        kind: 'encoding',
        encoding: 'cp1252',
        detected: true,
        reason: 'not UTF-8; 0 ISO-8859-1 and 0 CP850 umlaut bytes in the first 0 bytes',
      },
    ]);
  });
});
