import type { Redis } from 'ioredis';

/** Remembers nonces for a while; claiming one that is still remembered fails. */
export interface NonceStore {
  /** True the first time `nonce` is claimed within `ttlMs`, false for a replay. */
  claim(nonce: string, ttlMs: number): Promise<boolean>;
}

export const NONCE_STORE = Symbol('NONCE_STORE');

/** Nonces as Redis keys that expire on their own (SET NX PX): one atomic command per claim. */
export class RedisNonceStore implements NonceStore {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
  ) {}

  async claim(nonce: string, ttlMs: number): Promise<boolean> {
    const result = await this.redis.set(`${this.keyPrefix}${nonce}`, '1', 'PX', ttlMs, 'NX');
    return result === 'OK';
  }
}
