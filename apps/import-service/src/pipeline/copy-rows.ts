import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { EntityManager } from 'typeorm';

type CopyValue = string | number | null | undefined;

/** COPY text format: backslash, tab and line breaks escaped; columns separated by tabs; null and undefined as \N. */
function copyLine(values: CopyValue[]): string {
  return `${values.map(copyField).join('\t')}\n`;
}

/** Runs for every field of every staged record: a test before the replace is about three times as fast. */
function copyField(value: CopyValue): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`COPY of a number that is not finite: ${value}`);
    return String(value);
  }
  return ESCAPED.test(value) ? value.replace(ESCAPED_ALL, escapeCharacter) : value;
}

const ESCAPED = /[\\\t\n\r]/;
const ESCAPED_ALL = new RegExp(ESCAPED.source, 'g');
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const escapeCharacter = (character: string) => ESCAPES[character] ?? character;

/** COPY data is sent in chunks of about this many characters: a write per row would be a system call per row. */
const CHUNK_CHARACTERS = 64 * 1024;

/** The rows' COPY lines, joined into chunks of about CHUNK_CHARACTERS. */
function* copyChunks(rows: Iterable<CopyValue[]>): Generator<string> {
  let chunk = '';
  for (const row of rows) {
    chunk += copyLine(row);
    if (chunk.length >= CHUNK_CHARACTERS) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

/**
 * Loads rows into `table (columns)` with COPY on the transaction's own connection: several times faster than
 * multi-row INSERTs for the staging of large files.
 */
export async function copyRows(
  tx: EntityManager,
  target: string,
  rows: Iterable<CopyValue[]>,
): Promise<void> {
  if (!tx.queryRunner) throw new Error('copyRows needs a transaction');
  const client = (await tx.queryRunner.connect()) as PoolClient;
  await pipeline(Readable.from(copyChunks(rows)), client.query(copyFrom(`COPY ${target} FROM STDIN`)));
}
