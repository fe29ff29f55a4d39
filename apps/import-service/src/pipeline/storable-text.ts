import { UNSTORABLE_CHARACTER } from '@broker/errors';

const describe = (character: string) =>
  character === '\u0000' ? 'a NUL character (byte 0x00)' : 'half of a character (a lone UTF-16 surrogate)';

/** The first character in the strings of `value` (a record) that PostgreSQL cannot store, described. */
export function unstorableCharacterIn(value: unknown): string | undefined {
  if (typeof value === 'string') {
    const character = UNSTORABLE_CHARACTER.exec(value)?.[0];
    return character === undefined ? undefined : describe(character);
  }
  if (value === null || typeof value !== 'object') return undefined;
  // Runs for every staged record: stops at the first hit and builds no array of findings.
  for (const field of Object.values(value)) {
    const found = unstorableCharacterIn(field);
    if (found) return found;
  }
  return undefined;
}

/** `text` (a message that may quote the file) with each character PostgreSQL cannot store made U+FFFD. */
export function storableText(text: string): string {
  return text.replace(new RegExp(UNSTORABLE_CHARACTER.source, 'gu'), '\uFFFD');
}
