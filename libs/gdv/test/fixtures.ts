import { existsSync } from 'node:fs';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import {
  type ContractInput,
  type CustomerInput,
  type GdvEvent,
  type GdvReadOptions,
  GdvWriter,
  type GdvWriterOptions,
  type ImportEvent,
  readGdv,
  readImportEntities,
  type VorsatzInput,
} from '../src/index.js';

/** The real sample files live outside the repository (../shared/gdv-samples) and are never copied in. */
export const SAMPLES_DIR = path.resolve(__dirname, '../../../../shared/gdv-samples');
export const samplesPresent = existsSync(SAMPLES_DIR);

export const VORSATZ: VorsatzInput = {
  vuNumber: '9999',
  sender: 'Test Versicherung AG',
  recipient: 'Makler Mustermann',
  periodFrom: '2024-01-01',
  periodTo: '2024-01-31',
  broker: '1803012',
};

export function customer(overrides: Partial<CustomerInput> = {}): CustomerInput {
  return {
    vuNumber: '9999',
    sparte: '040',
    policyNumber: 'HP4711',
    broker: '1803012',
    salutationCode: '1',
    name1: 'Müller',
    name3: 'Jürgen',
    countryCode: 'D',
    postalCode: '50667',
    city: 'Köln',
    street: 'Große Straße 1',
    birthDate: '1970-03-15',
    genderCode: '1',
    insurerCustomerNumber: 'K100',
    ...overrides,
  };
}

export function contract(overrides: Partial<ContractInput> = {}): ContractInput {
  return {
    vuNumber: '9999',
    sparte: '040',
    policyNumber: 'HP4711',
    broker: '1803012',
    statusCode: '1',
    startDate: '2020-01-01',
    endDate: '2025-01-01',
    mainDueDate: '2024-01-01',
    paymentModeCode: '1',
    netPremiumCents: 12345,
    grossPremiumCents: 14691,
    insurerCustomerNumber: 'K100',
    lineOfBusinessParts: [{ sparte: '040', premiumCents: 12345 }],
    ...overrides,
  };
}

/** Collects what a GdvWriter writes. */
class ByteSink extends Writable {
  readonly chunks: Buffer[] = [];

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.chunks.push(chunk);
    done();
  }
}

export async function writeFile(
  build: (writer: GdvWriter) => Promise<void>,
  options: GdvWriterOptions = {},
): Promise<Buffer> {
  const sink = new ByteSink();
  const writer = new GdvWriter(sink, options);
  await build(writer);
  await writer.end();
  return Buffer.concat(sink.chunks);
}

/** One package with one customer and one contract. */
export function singleContractFile(options: GdvWriterOptions = {}): Promise<Buffer> {
  return writeFile(async (writer) => {
    await writer.startPackage(VORSATZ);
    await writer.writeCustomer(customer());
    await writer.writeContract(contract());
    await writer.endPackage();
  }, options);
}

/** Feeds bytes in chunks of the given size, so that lines and characters straddle chunk boundaries. */
export function chunked(bytes: Buffer, chunkSize = 1000): Readable {
  const chunks: Buffer[] = [];
  for (let start = 0; start < bytes.length; start += chunkSize)
    chunks.push(bytes.subarray(start, start + chunkSize));
  return Readable.from(chunks);
}

export async function collect<T>(events: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const event of events) all.push(event);
  return all;
}

export function readAll(
  bytes: Buffer,
  options: GdvReadOptions = {},
  chunkSize?: number,
): Promise<GdvEvent[]> {
  return collect(readGdv(chunked(bytes, chunkSize), options));
}

export function importAll(bytes: Buffer, options: GdvReadOptions = {}): Promise<ImportEvent[]> {
  return collect(readImportEntities(chunked(bytes), options));
}

export function ofKind<K extends ImportEvent['kind']>(
  events: ImportEvent[],
  kind: K,
): Extract<ImportEvent, { kind: K }>[] {
  return events.filter((event): event is Extract<ImportEvent, { kind: K }> => event.kind === kind);
}

/** The file's lines as latin1 text (one character per byte), for byte-level edits. */
export function fileLines(bytes: Buffer): string[] {
  return bytes.toString('latin1').split('\n');
}

export function joinLines(lines: string[]): Buffer {
  return Buffer.from(lines.join('\n'), 'latin1');
}

/** Replaces the character at a 1-based position of a line. */
export function setCharacter(line: string, position: number, character: string): string {
  return line.slice(0, position - 1) + character + line.slice(position);
}
