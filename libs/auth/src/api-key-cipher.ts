import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const FORMAT_VERSION = 'v1';

/**
 * Encrypts API keys at rest (AES-256-GCM). Area C needs the plain key to check digests and OTPs,
 * so keys are encrypted, not hashed. Stored form: `v1:<base64 of iv | tag | ciphertext>`.
 */
export class ApiKeyCipher {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('The API key encryption key must be 32 bytes');
  }

  encrypt(apiKey: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(apiKey, 'utf8'), cipher.final()]);
    return `${FORMAT_VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64')}`;
  }

  /** Throws when the stored value was not made with this key or was altered. */
  decrypt(stored: string): string {
    const [version, payload] = stored.split(':');
    if (version !== FORMAT_VERSION || !payload) throw new Error('Unknown API key ciphertext format');
    const bytes = Buffer.from(payload, 'base64');
    if (bytes.length < IV_BYTES + TAG_BYTES) throw new Error('API key ciphertext is truncated');
    const decipher = createDecipheriv(ALGORITHM, this.key, bytes.subarray(0, IV_BYTES), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
      'utf8',
    );
  }

  /** Whether `stored` holds exactly `apiKey` under this key (false for foreign or damaged ciphertexts). */
  holds(stored: string, apiKey: string): boolean {
    try {
      return this.decrypt(stored) === apiKey;
    } catch {
      return false;
    }
  }
}
