import { parse } from 'csv-parse/sync';
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

/** csv-parse's message without the position it names (the error lists the line itself). */
const withoutPosition = (message: string) => message.replace(/:? ?(on|at) line \d+.*$/, '');

/**
 * Reads a master-data file: UTF-8 (a BOM is skipped), a header row naming the columns (in any order; blanks around
 * names and cells are dropped), one record per row, blank lines skipped. The header must name every `required`
 * column and nothing beyond `known`; otherwise, or for a file without rows, the whole file is refused (400). A row
 * with another number of cells than the header, or that is no CSV record at all, is listed with its line.
 */
export function parseMasterDataCsv(
  text: string,
  { required, known }: { required: readonly string[]; known: readonly string[] },
): ParsedMasterData {
  const normalised = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const headerEnd = normalised.indexOf('\n');
  const headerLine = headerEnd < 0 ? normalised : normalised.slice(0, headerEnd);
  const errors: MasterDataLineError[] = [];
  let unclosedQuoteAt: number | undefined;
  const records = parse(normalised, {
    delimiter: delimiterOf(headerLine),
    trim: true,
    skip_empty_lines: true,
    relax_column_count: true,
    info: true,
    skip_records_with_error: true,
    on_skip: (error) => {
      if (error?.code === 'CSV_QUOTE_NOT_CLOSED') unclosedQuoteAt = Number(error.lines);
      else if (error)
        errors.push({
          line: Number(error.lines),
          message: `is not a CSV record: ${withoutPosition(error.message)}`,
        });
      return undefined;
    },
  }) as unknown as { record: string[]; info: { lines: number } }[];
  if (unclosedQuoteAt !== undefined) errors.push(unclosedQuote(records, errors, unclosedQuoteAt));
  const [header, ...body] = records;
  if (!header) throw refuse('The file is empty: it needs a header row and at least one row');
  const columns = header.record.map((name) => name.toLowerCase());
  checkHeader(columns, required, known);
  if (body.length === 0 && errors.length === 0) throw refuse('The file has a header row but no rows');
  const rows: MasterDataRow[] = [];
  for (const { record, info } of body) {
    const line = info.lines - record.reduce((breaks, cell) => breaks + cell.split('\n').length - 1, 0);
    if (record.length !== columns.length) {
      errors.push({
        line,
        message: `has ${record.length} cells; the header names ${columns.length} columns`,
      });
      continue;
    }
    // Blanks inside quotes are dropped too: names and numbers are stored trimmed, as the API stores them.
    rows.push({
      line,
      cells: Object.fromEntries(columns.map((column, index) => [column, record[index].trim()])),
    });
  }
  return { columns, rows, errors };
}

/**
 * A quote that is never closed takes every line after it along: csv-parse reports the file's end. The quote opened
 * after the last line that was read (as a record or refused as one).
 */
function unclosedQuote(
  records: { info: { lines: number } }[],
  errors: MasterDataLineError[],
  endLine: number,
): MasterDataLineError {
  const lastRead = Math.max(
    0,
    ...records.map((record) => record.info.lines),
    ...errors.map((error) => error.line),
  );
  const line = Math.min(lastRead + 1, endLine);
  const taken = line < endLine ? `: lines ${line}-${endLine} could not be read` : '';
  return { line, message: `has a quote that is never closed${taken}` };
}

function checkHeader(columns: string[], required: readonly string[], known: readonly string[]): void {
  const problems: string[] = [];
  const missing = required.filter((column) => !columns.includes(column));
  if (missing.length > 0) problems.push(`The header row lacks the column(s) ${missing.join(', ')}`);
  const unknown = columns.filter((column) => !known.includes(column));
  if (unknown.length > 0)
    problems.push(`The header row names unknown column(s) ${unknown.join(', ')}; known: ${known.join(', ')}`);
  const twice = columns.filter((column, index) => columns.indexOf(column) !== index);
  if (twice.length > 0)
    problems.push(`The header row names ${[...new Set(twice)].join(', ')} more than once`);
  if (problems.length > 0) throw DomainError.validation(problems);
}
