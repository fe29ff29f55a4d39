import { decodeBytes, detectEncoding, encodeText, GDV_ENCODINGS } from './encoding.js';

const UMLAUTS = 'äöüÄÖÜß§';

describe('decoding and encoding', () => {
  it('decodes the German characters in every supported encoding', () => {
    expect(decodeBytes(Buffer.from([0x84, 0x94, 0x81, 0x8e, 0x99, 0x9a, 0xe1, 0xf5]), 'cp850')).toBe(UMLAUTS);
    expect(decodeBytes(Buffer.from([0xe4, 0xf6, 0xfc, 0xc4, 0xd6, 0xdc, 0xdf, 0xa7]), 'cp1252')).toBe(
      UMLAUTS,
    );
    expect(decodeBytes(Buffer.from([0xe4, 0xf6, 0xfc, 0xc4, 0xd6, 0xdc, 0xdf, 0xa7]), 'latin1')).toBe(
      UMLAUTS,
    );
    expect(decodeBytes(Buffer.from(UMLAUTS, 'utf8'), 'utf-8')).toBe(UMLAUTS);
  });

  it('tells CP1252 from ISO-8859-1 in 0x80–0x9F', () => {
    expect(decodeBytes(Buffer.from([0x80]), 'cp1252')).toBe('€');
    expect(decodeBytes(Buffer.from([0x80]), 'latin1')).toBe('\u0080');
  });

  it('round-trips every byte 0x80–0xFF through the single-byte tables', () => {
    const allHighBytes = Buffer.from(Array.from({ length: 128 }, (_, offset) => 0x80 + offset));
    for (const encoding of GDV_ENCODINGS.filter((name) => name !== 'utf-8')) {
      expect(encodeText(decodeBytes(allHighBytes, encoding), encoding)).toEqual(allHighBytes);
    }
  });

  it('writes ? for characters an encoding lacks', () => {
    expect(encodeText('€', 'latin1')).toEqual(Buffer.from('?'));
    expect(encodeText('€', 'cp850')).toEqual(Buffer.from('?'));
    expect(encodeText('€', 'cp1252')).toEqual(Buffer.from([0x80]));
  });
});

describe('encoding detection', () => {
  const latin1 = (text: string): Buffer => Buffer.from(text, 'latin1');

  it('takes valid UTF-8 with a multi-byte sequence as UTF-8', () => {
    expect(detectEncoding(Buffer.from('Müller\nKöln\n', 'utf8'), true).encoding).toBe('utf-8');
    expect(detectEncoding(Buffer.from([0xef, 0xbb, 0xbf, 0x41]), true)).toMatchObject({ encoding: 'utf-8' });
  });

  it('takes pure ASCII as CP1252, which reads it the same', () => {
    expect(detectEncoding(latin1('0001 ascii only\n'), true)).toMatchObject({ encoding: 'cp1252' });
  });

  it('decides between CP850 and Latin-1 by the umlaut bytes', () => {
    expect(detectEncoding(latin1('M\u00fcller K\u00f6ln'), true).encoding).toBe('cp1252');
    expect(detectEncoding(Buffer.from([0x4d, 0x81, 0x6c, 0x0a, 0x4b, 0x94, 0x6c]), true).encoding).toBe(
      'cp850',
    );
  });

  it('does not take a UTF-8 sequence cut off at the end of an incomplete prefix for Latin-1', () => {
    const cut = Buffer.from('Köln Mü', 'utf8').subarray(0, -1);
    expect(detectEncoding(cut, false).encoding).toBe('utf-8');
    expect(detectEncoding(cut, true).encoding).toBe('cp1252');
  });

  it('reports mixed umlaut bytes with the first line of the minority', () => {
    const mixed = Buffer.concat([latin1('M\u00fcller\nK\u00f6ln\n'), Buffer.from([0x84, 0x0a])]);
    expect(detectEncoding(mixed, true)).toMatchObject({
      encoding: 'cp1252',
      conflict: { minorityEncoding: 'cp850', minorityBytes: 1, firstLine: 3 },
    });
  });
});
