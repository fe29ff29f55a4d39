import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { testRedisUrl } from './test-env.js';

export interface TestRedisNamespace {
  url: string;
  /** Key prefix for BullMQ queues and any other keys the code under test writes. */
  prefix: string;
  /** Deletes every key under the prefix. */
  clear(): Promise<void>;
}

/** A key prefix of its own for one test file, so files share one Redis and leave nothing behind. */
export function createTestRedisNamespace(): TestRedisNamespace {
  const url = testRedisUrl();
  const prefix = `bp-test-${randomBytes(6).toString('hex')}`;
  return { url, prefix, clear: () => deleteKeysWithPrefix(url, prefix) };
}

async function deleteKeysWithPrefix(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
