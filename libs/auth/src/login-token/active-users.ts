import { BoundedCache } from '../bounded-cache.js';

/** Whether the user a login token names still exists and is enabled. */
export interface ActiveUsers {
  isActive(userId: string): Promise<boolean>;
}

export const ACTIVE_USERS = Symbol('ACTIVE_USERS');

const REMEMBERED_USERS = 10_000;

/**
 * Users' states read through `lookup` and remembered for `ttlMs`: a token of a user deleted or disabled is refused
 * within that bound, and a user calculating all day costs one lookup per `ttlMs`, not one per request. Concurrent
 * requests of one user share a lookup.
 */
export class CachedActiveUsers implements ActiveUsers {
  private readonly known = new BoundedCache<string, { active: boolean; until: number }>(REMEMBERED_USERS);
  private readonly pending = new Map<string, Promise<boolean>>();

  constructor(
    private readonly lookup: (userId: string) => Promise<boolean>,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async isActive(userId: string): Promise<boolean> {
    const known = this.known.get(userId);
    if (known && this.now() < known.until) return known.active;
    let looking = this.pending.get(userId);
    if (!looking) {
      looking = this.lookUp(userId).finally(() => this.pending.delete(userId));
      this.pending.set(userId, looking);
    }
    return looking;
  }

  private async lookUp(userId: string): Promise<boolean> {
    const active = await this.lookup(userId);
    this.known.set(userId, { active, until: this.now() + this.ttlMs });
    return active;
  }
}
