import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

export const LOGIN_THROTTLE_SETTINGS = Symbol('LOGIN_THROTTLE_SETTINGS');

export interface LoginThrottleSettings {
  /** Failures of one user name from one address before that address is refused for the window. */
  maxFailures: number;
  windowSeconds: number;
}

/** What an attempt must wait for: a refusal (seconds until the window ends), or a delay before it is checked. */
export interface LoginAdmission {
  retryAfterSeconds: number;
  delayMs: number;
}

/** Each failure beyond the first few slows the next attempts by this much, up to MAX_DELAY_MS. */
const DELAY_PER_FAILURE_MS = 500;
const MAX_DELAY_MS = 3_000;
/** Failures of a user name (from anywhere) that cost no delay yet: a user mistyping. */
const FREE_FAILURES = 2;

const pairKey = (username: string, address: string) => `pair:${username.toLowerCase()}|${address}`;
const userKey = (username: string) => `user:${username.toLowerCase()}`;

/**
 * Failed logins counted in PostgreSQL (shared by every instance) twice: per user name and client address, and per
 * user name from anywhere. An address that keeps failing for a user name is slowed, then refused until the window
 * ends (even with the right password). The count per user name only slows attempts down (at most MAX_DELAY_MS),
 * never refuses them, so nobody can lock a user out from elsewhere. Unknown user names are counted the same way,
 * and the delay comes before the password is checked, so it tells nothing about the account.
 */
@Injectable()
export class LoginThrottle {
  constructor(
    private readonly db: DataSource,
    @Inject(LOGIN_THROTTLE_SETTINGS) private readonly settings: LoginThrottleSettings,
  ) {}

  /**
   * Counts the attempt as a failure before its password is checked (atomically, so attempts sent at once cannot
   * all pass a count read before any of them) and says whether it may be checked, and after what delay.
   * `succeeded` takes the count back for a right password.
   */
  async admit(username: string, address: string): Promise<LoginAdmission> {
    const pair = pairKey(username, address);
    const rows = await this.db.query<{ key: string; failures: number; seconds: number }[]>(
      `INSERT INTO calc.login_throttle AS t (throttle_key, failures, window_started_at)
       SELECT key, 1, now() FROM unnest($1::text[]) key
       ON CONFLICT (throttle_key) DO UPDATE SET
         failures = CASE WHEN t.window_started_at + make_interval(secs => $2) > now() THEN t.failures + 1 ELSE 1 END,
         window_started_at = CASE WHEN t.window_started_at + make_interval(secs => $2) > now()
                                  THEN t.window_started_at ELSE now() END
       RETURNING throttle_key AS key, failures,
                 ceil(extract(epoch FROM window_started_at + make_interval(secs => $2) - now()))::int AS seconds`,
      [[pair, userKey(username)], this.settings.windowSeconds],
    );
    const pairRow = rows.find((row) => row.key === pair);
    const userRow = rows.find((row) => row.key !== pair);
    if (pairRow && pairRow.failures > this.settings.maxFailures)
      return { retryAfterSeconds: Math.max(pairRow.seconds, 1), delayMs: 0 };
    // The failures before this attempt decide its delay.
    const earlier = Math.max(pairRow?.failures ?? 1, userRow?.failures ?? 1) - 1;
    const delayMs = Math.min(MAX_DELAY_MS, Math.max(0, earlier - FREE_FAILURES) * DELAY_PER_FAILURE_MS);
    return { retryAfterSeconds: 0, delayMs };
  }

  /**
   * A right password from the address: its pair count goes, and this attempt is taken off the user name's count
   * (the failures from other addresses stay).
   */
  async succeeded(username: string, address: string): Promise<void> {
    await this.db.query('DELETE FROM calc.login_throttle WHERE throttle_key = $1', [
      pairKey(username, address),
    ]);
    await this.db.query(
      'UPDATE calc.login_throttle SET failures = greatest(failures - 1, 0) WHERE throttle_key = $1',
      [userKey(username)],
    );
  }
}
