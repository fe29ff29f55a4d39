import { randomBytes } from 'node:crypto';
import { ApiKeyCipher } from './api-key-cipher.js';

describe('ApiKeyCipher', () => {
  const cipher = new ApiKeyCipher(randomBytes(32));

  it('round-trips a key and never stores it in clear', () => {
    const stored = cipher.encrypt('demo-api-key');
    expect(stored).toMatch(/^v1:/);
    expect(stored).not.toContain('demo-api-key');
    expect(cipher.decrypt(stored)).toBe('demo-api-key');
  });

  it('uses a fresh IV each time', () => {
    expect(cipher.encrypt('k')).not.toBe(cipher.encrypt('k'));
  });

  it('refuses ciphertexts of another key and altered ones', () => {
    const stored = cipher.encrypt('demo-api-key');
    expect(new ApiKeyCipher(randomBytes(32)).holds(stored, 'demo-api-key')).toBe(false);
    const bytes = Buffer.from(stored.slice(3), 'base64');
    bytes[bytes.length - 1] ^= 1; // flip one bit of the ciphertext
    const altered = `v1:${bytes.toString('base64')}`;
    expect(cipher.holds(altered, 'demo-api-key')).toBe(false);
    expect(cipher.holds(stored, 'demo-api-key')).toBe(true);
  });

  it('refuses a ciphertext too short to hold its authentication tag', () => {
    const stored = cipher.encrypt('demo-api-key');
    const truncated = `v1:${Buffer.from(stored.slice(3), 'base64').subarray(0, 20).toString('base64')}`;
    expect(() => cipher.decrypt(truncated)).toThrow('API key ciphertext is truncated');
  });

  it('rejects keys of the wrong length', () => {
    expect(() => new ApiKeyCipher(randomBytes(16))).toThrow('32 bytes');
  });
});
