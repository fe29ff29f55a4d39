import { pipeline, Readable } from 'node:stream';
import { isISO31661Alpha2 } from 'class-validator';
import { type CsvError, parse } from 'csv-parse';
import { decodeBytes, DETECTION_PREFIX_BYTES, detectEncoding, type GdvEncoding } from '@broker/gdv';
import {
  CellError,
  parseCents,
  parseDate,
  parsePaymentMode,
  parseSalutation,
  parseStatus,
} from './csv-values.js';
import type { ImportedContract, ImportedCustomer, ImportedEntityEvent } from './imported-entities.js';

/** The columns of the CSV import format (docs: csv-import-format.md); `*` marks the required ones. */
const COLUMNS = [
  'kundennummer*',
  'personentyp',
  'anrede',
  'titel',
  'vorname',
  'nachname',
  'firma',
  'geburtsdatum',
  'strasse',
  'plz',
  'ort',
  'land',
  'email',
  'telefon',
  'mobil',
  'vu_nummer*',
  'sparte*',
  'vertragsnummer*',
  'status',
  'beginn',
  'ablauf',
  'hauptfaelligkeit',
  'zahlweise',
  'nettobeitrag',
  'bruttobeitrag',
  'waehrung',
] as const;

type Column = (typeof COLUMNS)[number] extends `${infer Name}*` | infer Name ? Name & string : never;
type Row = Partial<Record<Column, string>>;

const KNOWN = new Set(COLUMNS.map((column) => column.replace('*', '')));
const REQUIRED = COLUMNS.filter((column) => column.endsWith('*')).map((column) => column.replace('*', ''));

/** The file as a whole cannot be read as the CSV import format (header, encoding). */
export class CsvFormatError extends Error {}

function checkHeader(header: string[]): string[] {
  const columns = header.map((name) => name.trim().toLowerCase());
  const unknown = columns.filter((name) => !KNOWN.has(name));
  if (unknown.length > 0) throw new CsvFormatError(`Unknown columns: ${unknown.join(', ')}`);
  const repeated = new Set(columns.filter((name, index) => columns.indexOf(name) !== index));
  if (repeated.size > 0)
    throw new CsvFormatError(`Columns named more than once: ${[...repeated].join(', ')}`);
  const missing = REQUIRED.filter((name) => !columns.includes(name));
  if (missing.length > 0) throw new CsvFormatError(`Missing required columns: ${missing.join(', ')}`);
  return columns;
}

/** A record's limit: memory stays bounded whatever the file holds. */
const MAX_RECORD_BYTES = 64 * 1024;

const recordTooLong = (line: number) =>
  new CsvFormatError(
    `Line ${line} holds a record longer than ${MAX_RECORD_BYTES} bytes (an unterminated quote?); the file cannot be read past it`,
  );

/** `;` or `,`, whichever the header row uses more (a tie means `;`, the German default). */
function detectDelimiter(firstLine: string): ';' | ',' {
  const count = (character: string) => firstLine.split(character).length - 1;
  return count(',') > count(';') ? ',' : ';';
}

const optional = (text: string | undefined) => (text ? text : null);

function required(row: Row, column: Column): string {
  const value = row[column];
  if (!value) throw new CellError(`${column} is empty`);
  return value;
}

function customerOf(row: Row, line: number): ImportedCustomer {
  const personType = (row.personentyp || 'natuerlich').toLowerCase();
  if (personType !== 'natuerlich' && personType !== 'juristisch') {
    throw new CellError(`personentyp "${row.personentyp}" is not natuerlich or juristisch`);
  }
  if (personType === 'natuerlich' && !row.nachname) throw new CellError('nachname is empty (natural person)');
  if (personType === 'juristisch' && !row.firma) throw new CellError('firma is empty (legal person)');
  const contacts = (['email', 'telefon', 'mobil'] as const)
    .filter((type) => row[type])
    .map((type) => ({ type, value: row[type]!, context: null }));
  if (row.email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(row.email))
    throw new CellError(`email "${row.email}" is not an e-mail address`);
  const country = (row.land || 'DE').toUpperCase();
  if (!isISO31661Alpha2(country)) throw new CellError(`land "${row.land}" is not an ISO 3166-1 alpha-2 code`);
  return {
    key: `csv:${required(row, 'kundennummer')}`,
    personType,
    salutation: row.anrede ? parseSalutation(row.anrede) : null,
    title: optional(row.titel),
    firstName: optional(row.vorname),
    lastName: optional(row.nachname),
    companyName: optional(row.firma),
    birthDate: row.geburtsdatum ? parseDate('geburtsdatum', row.geburtsdatum) : null,
    address: {
      street: optional(row.strasse),
      postalCode: optional(row.plz),
      city: optional(row.ort),
      country,
    },
    contacts,
    line,
  };
}

function contractOf(row: Row, customerKey: string, line: number): ImportedContract {
  const lineOfBusiness = required(row, 'sparte');
  if (!/^\d{3}$/.test(lineOfBusiness))
    throw new CellError(`sparte "${lineOfBusiness}" is not a 3-digit GDV Sparte`);
  const currency = (row.waehrung || 'EUR').toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency))
    throw new CellError(`waehrung "${row.waehrung}" is not an ISO currency code`);
  return {
    customerKey,
    vuNumber: required(row, 'vu_nummer'),
    lineOfBusiness,
    policyNumber: required(row, 'vertragsnummer'),
    status: row.status ? parseStatus(row.status) : 'aktiv',
    startDate: row.beginn ? parseDate('beginn', row.beginn) : null,
    endDate: row.ablauf ? parseDate('ablauf', row.ablauf) : null,
    mainDueDate: row.hauptfaelligkeit ? parseDate('hauptfaelligkeit', row.hauptfaelligkeit) : null,
    paymentMode: row.zahlweise ? parsePaymentMode(row.zahlweise) : null,
    netPremiumCents: row.nettobeitrag ? parseCents('nettobeitrag', row.nettobeitrag) : null,
    grossPremiumCents: row.bruttobeitrag ? parseCents('bruttobeitrag', row.bruttobeitrag) : null,
    currency,
    line,
  };
}

/** The first bytes (for detection) and an iterable that yields the whole content again. */
async function peek(
  source: AsyncIterable<Uint8Array>,
): Promise<{ prefix: Buffer; complete: boolean; all: AsyncIterable<Uint8Array> }> {
  const iterator = source[Symbol.asyncIterator]();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let complete = false;
  while (size < DETECTION_PREFIX_BYTES) {
    const next = await iterator.next();
    if (next.done) {
      complete = true;
      break;
    }
    chunks.push(next.value);
    size += next.value.length;
  }
  async function* all(): AsyncIterable<Uint8Array> {
    yield* chunks;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  return { prefix: Buffer.concat(chunks), complete, all: all() };
}

async function* decode(bytes: AsyncIterable<Uint8Array>, encoding: GdvEncoding): AsyncIterable<string> {
  if (encoding !== 'utf-8') {
    for await (const chunk of bytes) yield decodeBytes(chunk, encoding);
    return;
  }
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of bytes) yield decoder.decode(chunk, { stream: true });
  yield decoder.decode();
}

/**
 * CR LF and lone CR become LF, so every line break counts once (csv-parse counts a CR LF inside a quoted
 * field twice). A CR at the end of a chunk waits for the next one.
 */
async function* normaliseLineBreaks(text: AsyncIterable<string>): AsyncIterable<string> {
  let pendingCr = false;
  for await (const chunk of text) {
    const joined: string = (pendingCr ? '\r' : '') + chunk;
    pendingCr = joined.endsWith('\r');
    const body = pendingCr ? joined.slice(0, -1) : joined;
    if (body) yield body.replace(/\r\n?/g, '\n');
  }
  if (pendingCr) yield '\n';
}

/** The line a row starts on: csv-parse reports where it ends. */
function startLine(row: Row, endLine: number): number {
  const breaks = Object.values(row).reduce((count, value) => count + (value?.split('\n').length ?? 1) - 1, 0);
  return endLine - breaks;
}

/**
 * The line a quote that is never closed opens on: csv-parse reports the end of the file, and the raw text it read
 * since the record began (line breaks normalised, blank lines skipped before it first).
 */
function unclosedQuoteLine(raw: string, endLine: number): number {
  let breaks = 0;
  const first = raw.search(/\S/);
  for (let at = raw.indexOf('\n', first); at >= 0 && at < raw.length - 1; at = raw.indexOf('\n', at + 1))
    breaks++;
  return first < 0 ? endLine : endLine - breaks;
}

/** Why a record could not be read, without csv-parse's line (the rejection names the record's first line). */
function skipReason(error: CsvError, line: number, endLine: number): string {
  if (error.code !== 'CSV_QUOTE_NOT_CLOSED') return error.message.replace(/ on line \d+$/, '');
  const unclosed = 'A quote opened on this line is never closed';
  // It runs to the end of the file, taking every line after it along.
  return line < endLine ? `${unclosed}: lines ${line}-${endLine} could not be read` : unclosed;
}

/**
 * Streams a CSV import file: one customer and one contract per row (the pipeline merges customers by key),
 * and a rejection with its line for each row that cannot be read; the other rows go on. Yields the events of
 * each row together, with the rejections of rows before it. Encoding (UTF-8 with or without BOM, else
 * CP1252/ISO-8859-1) and delimiter (`;` or `,`) are detected from the first bytes.
 */
export async function* readCsvImport(
  source: AsyncIterable<Uint8Array>,
): AsyncGenerator<ImportedEntityEvent[]> {
  const { prefix, complete, all } = await peek(source);
  const encoding = detectEncoding(prefix, complete).encoding;
  const firstLine = decodeBytes(
    prefix.subarray(0, Math.max(prefix.indexOf(0x0a), 0) || prefix.length),
    encoding,
  );
  const skipped: { line: number; message: string }[] = [];
  /** Rejections of rows before `line`, in line order (the parser reports them ahead of earlier rows). */
  const rejectionsBefore = (line: number): ImportedEntityEvent[] =>
    skipped
      .filter((skip) => skip.line < line)
      .sort((a, b) => a.line - b.line)
      .map((skip) => {
        skipped.splice(skipped.indexOf(skip), 1);
        return { kind: 'rejected', ...skip };
      });
  // pipeline (not pipe) so a failing source errors the parser instead of leaving it waiting forever.
  const parser = pipeline(
    Readable.from(normaliseLineBreaks(decode(all, encoding))),
    parse({
      delimiter: detectDelimiter(firstLine),
      columns: checkHeader,
      bom: true,
      trim: true,
      skip_empty_lines: true,
      info: true,
      raw: true,
      skip_records_with_error: true,
      max_record_size: MAX_RECORD_BYTES,
    }),
    () => undefined,
  );
  // csv-parse reads nothing after an oversized record (it skips the rest of the file chunk by chunk).
  let tooLong: CsvFormatError | undefined;
  parser.on('skip', (error: CsvError & { lines?: number; raw?: string }) => {
    const endLine = error.lines ?? 0;
    // Only for an unclosed quote: after other quote errors csv-parse's raw text runs on from an earlier record.
    const line =
      error.code === 'CSV_QUOTE_NOT_CLOSED' ? unclosedQuoteLine(error.raw ?? '', endLine) : endLine;
    if (error.code === 'CSV_MAX_RECORD_SIZE') tooLong ??= recordTooLong(line);
    else if (!tooLong) skipped.push({ line, message: skipReason(error, line, endLine) });
  });
  for await (const { record, info } of parser as AsyncIterable<{ record: Row; info: { lines: number } }>) {
    const line = startLine(record, info.lines);
    yield [...rejectionsBefore(line), ...rowEvents(record, line)];
  }
  yield rejectionsBefore(Number.POSITIVE_INFINITY);
  if (tooLong) throw tooLong;
}

/** PostgreSQL stores no NUL character in text: a row holding one is faulty. */
function checkNoNul(row: Row): void {
  const column = (Object.keys(row) as Column[]).find((name) => row[name]?.includes('\u0000'));
  if (column) throw new CellError(`${column} contains a NUL character (byte 0x00)`);
}

function rowEvents(row: Row, line: number): ImportedEntityEvent[] {
  try {
    checkNoNul(row);
    const customer = customerOf(row, line);
    return [
      { kind: 'customer', customer },
      { kind: 'contract', contract: contractOf(row, customer.key, line) },
    ];
  } catch (error) {
    if (error instanceof CellError) return [{ kind: 'rejected', line, message: error.message }];
    throw error;
  }
}
