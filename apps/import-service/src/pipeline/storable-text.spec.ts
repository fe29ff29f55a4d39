import { storableText, unstorableCharacterIn } from './storable-text.js';

describe('text PostgreSQL cannot store', () => {
  it('finds a NUL or a lone surrogate anywhere in a record, and nothing in storable text', () => {
    expect(unstorableCharacterIn({ address: { city: 'K\u0000ln' } })).toBe('a NUL character (byte 0x00)');
    expect(unstorableCharacterIn({ contacts: [{ value: 'x\ud83d' }] })).toBe(
      'half of a character (a lone UTF-16 surrogate)',
    );
    expect(unstorableCharacterIn({ lastName: '\ude00x' })).toBe(
      'half of a character (a lone UTF-16 surrogate)',
    );
    expect(unstorableCharacterIn({ lastName: 'M\u00fcller \ud83d\ude00\u0001', line: 3, title: null })).toBe(
      undefined,
    );
  });

  it('replaces each such character in a message by U+FFFD', () => {
    expect(storableText('"\u0000\u0000" \ud800 \ud83d\ude00')).toBe('"\ufffd\ufffd" \ufffd \ud83d\ude00');
  });
});
