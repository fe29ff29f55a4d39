import { once } from 'node:events';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { type Options, parse } from 'csv-parse';
import type { MasterDataLineError } from '@broker/contracts';
import { DomainError } from '@broker/errors';

/** A row of a master-data file: its cells by column name, and the line it starts on (the header is line 1). */
export interface MasterDataRow {
  line: number;
  cells: Record<string, string>;
}

export interface ParsedMasterData {
  columns: string[];
  rows: MasterDataRow[];
  /** Lines that are no CSV record (an unclosed quote, a stray quote). */
  errors: MasterDataLineError[];
}

/** The header row's delimiter: `;` as German spreadsheets write CSV, else `,`. */
function delimiterOf(headerLine: string): ',' | ';' {
  return headerLine.includes(';') && !headerLine.includes(',') ? ';' : ',';
}

const refuse = (message: string) => DomainError.validation([message]);

/** One upload's lines at most: a larger file is split (the whole file is read and checked in one transaction). */
export const MASTER_DATA_MAX_LINES = 200_000;
/** Bad lines read at most: after that many the file is not read further (it is refused either way). */
export const MASTER_DATA_MAX_BAD_LINES = 1000;

const MESSAGE_MAX_LENGTH = 200;

/** csv-parse's message without the position it names (the error lists the line itself), shortened. */
const withoutPosition = (message: string) =>
  message.replace(/:? ?(on|at) line \d+.*$/s, '').slice(0, MESSAGE_MAX_LENGTH);

interface CsvRecord {
  record: string[];
  info: { lines: number };
}

/** The line a record starts on: csv-parse counts the line it ends on, after the line breaks inside its cells. */
const firstLineOf = (record: string[], lastLine: number) =>
  lastLine - record.reduce((breaks, cell) => breaks + cell.split('\n').length - 1, 0);

/** Thrown from csv-parse's skip handler to stop reading a file with too many bad lines. */
class TooManyBadLines extends Error {}

/**
 * Reads a master-data file: UTF-8 (a BOM is skipped), a header row naming the columns (in any order; blanks around
 * names and cells are dropped), one record per row, blank lines skipped. The header must name every `required`
 * column and nothing beyond `known`; otherwise, for a file without rows, or for one of more than
 * MASTER_DATA_MAX_LINES lines, the whole file is refused (400). A row with another number of cells than the header,
 * or that is no CSV record at all, is listed with its line, up to MASTER_DATA_MAX_BAD_LINES of them.
 */
export async function parseMasterDataCsv(
  text: string,
  { required, known }: { required: readonly string[]; known: readonly string[] },
): Promise<ParsedMasterData> {
  const normalised = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const lines = lineCount(normalised);
  if (lines > MASTER_DATA_MAX_LINES)
    throw refuse(`The file has ${lines} lines; one upload takes at most ${MASTER_DATA_MAX_LINES}: split it`);
  const { records, errors } = await readRecords(normalised);
  const [header, ...body] = records;
  if (!header) throw refuse('The file is empty: it needs a header row and at least one row');
  const columns = header.record.map((name) => name.toLowerCase());
  checkHeader(columns, required, known);
  if (body.length === 0 && errors.length === 0) throw refuse('The file has a header row but no rows');
  // Blanks inside quotes are dropped too: names and numbers are stored trimmed, as the API stores them.
  const rows = body.map(({ record, info }) => ({
    line: firstLineOf(record, info.lines),
    cells: Object.fromEntries(columns.map((column, index) => [column, record[index].trim()])),
  }));
  return { columns, rows, errors };
}

function lineCount(text: string): number {
  let count = text.endsWith('\n') ? 0 : 1;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/** What one turn of the event loop parses: a 16 MiB file lets other requests in about every 50 ms. */
const CHUNK_CHARACTERS = 256 * 1024;

/**
 * csv-parse's records of `text`, fed to it a chunk per turn of the event loop so that a large file does not hold the
 * service's other requests (its health checks among them) for seconds. Ends early when `options.on_skip` throws.
 */
async function parseInTurns(text: string, options: Options): Promise<CsvRecord[]> {
  const parser = parse(options);
  const records: CsvRecord[] = [];
  parser.on('data', (record: CsvRecord) => records.push(record));
  // Settled at once, not only when awaited: an error while the chunks are fed must not be an unhandled rejection.
  const ended = once(parser, 'end').then(
    () => undefined,
    (error: Error) => error,
  );
  for (let at = 0; at < text.length && !parser.destroyed; at += CHUNK_CHARACTERS) {
    parser.write(text.slice(at, at + CHUNK_CHARACTERS));
    await nextTurn();
  }
  if (!parser.destroyed) parser.end();
  const failure = await ended;
  if (failure !== undefined && !(failure instanceof TooManyBadLines)) throw failure;
  return records;
}

/** The file's records (the header first), and its bad lines: refused records and an unclosed quote. */
async function readRecords(text: string): Promise<{ records: CsvRecord[]; errors: MasterDataLineError[] }> {
  // A miscounted row's message names the header's cell count, known once the parse returns.
  const bad: { line: number; message?: string; cells?: number }[] = [];
  let unclosedQuoteAt: number | undefined;
  const records = await parseInTurns(text, {
    delimiter: delimiterOf(/^\s*(.*)/.exec(text)?.[1] ?? ''),
    trim: true,
    skip_empty_lines: true,
    info: true,
    skip_records_with_error: true,
    on_skip: (error) => {
      if (error?.code === 'CSV_QUOTE_NOT_CLOSED') unclosedQuoteAt = Number(error.lines);
      else if (error?.code === 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH') {
        const record = error.record as string[];
        bad.push({ line: firstLineOf(record, Number(error.lines)), cells: record.length });
      } else if (error)
        bad.push({
          line: Number(error.lines),
          message: `is not a CSV record: ${withoutPosition(error.message)}`,
        });
      if (bad.length >= MASTER_DATA_MAX_BAD_LINES) throw new TooManyBadLines();
      return undefined;
    },
  });
  const headerLength = records[0]?.record.length ?? 0;
  const errors = bad.map(({ line, message, cells }) => ({
    line,
    message: message ?? `has ${cells} cells; the header names ${headerLength} columns`,
  }));
  if (bad.length >= MASTER_DATA_MAX_BAD_LINES)
    errors[errors.length - 1].message += '; the file was not read beyond this line';
  if (unclosedQuoteAt !== undefined) errors.push(unclosedQuote(records, errors, unclosedQuoteAt));
  return { records, errors };
}

/**
 * A quote that is never closed takes every line after it along: csv-parse reports the file's end. The quote opened
 * after the last line that was read (as a record or refused as one).
 */
function unclosedQuote(
  records: CsvRecord[],
  errors: MasterDataLineError[],
  endLine: number,
): MasterDataLineError {
  const lastRead = Math.max(records.at(-1)?.info.lines ?? 0, errors.at(-1)?.line ?? 0);
  const line = Math.min(lastRead + 1, endLine);
  const taken = line < endLine ? `: lines ${line}-${endLine} could not be read` : '';
  return { line, message: `has a quote that is never closed${taken}` };
}

const NAMES_SHOWN = 10;
const NAME_SHOWN_LENGTH = 40;

/** `a, b, c`, at most NAMES_SHOWN names each cut to NAME_SHOWN_LENGTH characters, then how many more. */
function someNames(names: string[]): string {
  const shown = names
    .slice(0, NAMES_SHOWN)
    .map((name) => (name.length > NAME_SHOWN_LENGTH ? `${name.slice(0, NAME_SHOWN_LENGTH)}…` : name));
  return names.length > NAMES_SHOWN
    ? `${shown.join(', ')} and ${names.length - NAMES_SHOWN} more`
    : shown.join(', ');
}

/** Each column named more than once, once (in one pass: a header may name very many columns). */
function namedTwice(columns: string[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const column of columns) (seen.has(column) ? twice : seen).add(column);
  return [...twice];
}

function checkHeader(columns: string[], required: readonly string[], known: readonly string[]): void {
  const problems: string[] = [];
  const named = new Set(columns);
  const missing = required.filter((column) => !named.has(column));
  if (missing.length > 0) problems.push(`The header row lacks the column(s) ${missing.join(', ')}`);
  const knownColumns = new Set(known);
  const unknown = [...named].filter((column) => !knownColumns.has(column));
  if (unknown.length > 0)
    problems.push(`The header row names unknown column(s) ${someNames(unknown)}; known: ${known.join(', ')}`);
  const twice = namedTwice(columns);
  if (twice.length > 0) problems.push(`The header row names ${someNames(twice)} more than once`);
  if (problems.length > 0) throw DomainError.validation(problems);
}
