import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkoutDatabaseName, checkoutName, checkoutRedisPrefixes } from './checkout-names.js';

describe('the names of a checkout’s development data', () => {
  it('differ between checkouts on one machine, also of the same directory name, and stay for one checkout', () => {
    const main = checkoutName('/work/main/.local');
    expect(main).toMatch(/^main_[0-9a-f]{8}$/);
    expect(checkoutName('/work/main/.local/')).toBe(main);
    expect(checkoutName('/work/main/../main/.local')).toBe(main);
    expect(checkoutName('/tmp/ci-clone/.local')).toMatch(/^ci_clone_[0-9a-f]{8}$/);
    expect(checkoutName('/home/a/main/.local')).not.toBe(main);
  });

  it('are the same for a checkout reached through a symbolic link', () => {
    const real = mkdtempSync(path.join(os.tmpdir(), 'checkout-'));
    const link = `${real}-link`;
    symlinkSync(real, link);
    try {
      expect(checkoutName(path.join(link, '.local'))).toBe(checkoutName(path.join(real, '.local')));
    } finally {
      rmSync(link);
      rmSync(real, { recursive: true });
    }
  });

  it('make a PostgreSQL identifier of lower-case letters, digits and _ within 63 characters', () => {
    for (const stateDir of ['/x/Mein Projekt (Kopie)!/.local', `/x/${'ä'.repeat(80)}/.local`, '/.local']) {
      const name = checkoutDatabaseName(stateDir);
      expect(name).toMatch(/^broker_platform_[a-z0-9_]+$/);
      expect(name.length).toBeLessThanOrEqual(63);
    }
    expect(checkoutDatabaseName('/x/Mein Projekt (Kopie)!/.local')).toMatch(
      /^broker_platform_mein_projekt_kopie_[0-9a-f]{8}$/,
    );
  });

  it('prefix the Redis keys of both services with the same name', () => {
    const name = checkoutName('/work/main/.local');
    expect(checkoutRedisPrefixes('/work/main/.local')).toEqual({
      BROKER_REDIS_PREFIX: `${name}:broker:`,
      IMPORT_QUEUE_PREFIX: `${name}:bull`,
    });
  });
});
