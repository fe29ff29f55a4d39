import { BoundedCache } from '../bounded-cache.js';

/** Whether the user a login token names still exists and is enabled. */
export interface ActiveUsers {
  /** `tokenIssuedAtSeconds`: the token's `iat`. */
  isActive(userId: string, tokenIssuedAtSeconds: number): Promise<boolean>;
}

export const ACTIVE_USERS = Symbol('ACTIVE_USERS');

const REMEMBERED_USERS = 10_000;

interface KnownState {
  active: boolean;
  /** When the state was read (ms). */
  readAt: number;
  until: number;
}

/**
 * Users' states read through `lookup` and remembered for `ttlMs`: a token of a user deleted or disabled is refused
 * within that bound, and a user calculating all day costs one lookup per `ttlMs`, not one per request. Concurrent
 * requests of one user share a lookup. A user remembered as disabled is read again for a token issued since (in the
 * same second or later): only an enabled user can log in, so such a token means the user was enabled meanwhile, and
 * it works at once.
 */
export class CachedActiveUsers implements ActiveUsers {
  private readonly known = new BoundedCache<string, KnownState>(REMEMBERED_USERS);
  private readonly pending = new Map<string, Promise<boolean>>();

  constructor(
    private readonly lookup: (userId: string) => Promise<boolean>,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async isActive(userId: string, tokenIssuedAtSeconds: number): Promise<boolean> {
    const known = this.known.get(userId);
    if (known && this.now() < known.until && !this.loggedInSince(known, tokenIssuedAtSeconds))
      return known.active;
    let looking = this.pending.get(userId);
    if (!looking) {
      looking = this.lookUp(userId).finally(() => this.pending.delete(userId));
      this.pending.set(userId, looking);
    }
    return looking;
  }

  private loggedInSince(known: KnownState, tokenIssuedAtSeconds: number): boolean {
    return !known.active && tokenIssuedAtSeconds >= Math.floor(known.readAt / 1000);
  }

  private async lookUp(userId: string): Promise<boolean> {
    const readAt = this.now();
    const active = await this.lookup(userId);
    this.known.set(userId, { active, readAt, until: readAt + this.ttlMs });
    return active;
  }
}
