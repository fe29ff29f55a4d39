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

  async admit(username: string, address: string): Promise<LoginAdmission> {
    const rows = await this.db.query<{ key: string; failures: number; seconds: number }[]>(
      `SELECT throttle_key AS key, failures,
              ceil(extract(epoch FROM window_started_at + make_interval(secs => $3) - now()))::int AS seconds
         FROM calc.login_throttle
        WHERE throttle_key IN ($1, $2) AND window_started_at + make_interval(secs => $3) > now()`,
      [pairKey(username, address), userKey(username), this.settings.windowSeconds],
    );
    const pair = rows.find((row) => row.key === pairKey(username, address));
    const user = rows.find((row) => row.key === userKey(username));
    if (pair && pair.failures >= this.settings.maxFailures)
      return { retryAfterSeconds: Math.max(pair.seconds, 1), delayMs: 0 };
    const failures = Math.max(pair?.failures ?? 0, user?.failures ?? 0);
    const delayMs = Math.min(MAX_DELAY_MS, Math.max(0, failures - FREE_FAILURES) * DELAY_PER_FAILURE_MS);
    return { retryAfterSeconds: 0, delayMs };
  }

  /** Counts a failure for the pair and for the user name; a window that has ended starts again. */
  async recordFailure(username: string, address: string): Promise<void> {
    await this.db.query(
      `INSERT INTO calc.login_throttle (throttle_key, failures, window_started_at)
       SELECT key, 1, now() FROM unnest($1::text[]) key
       ON CONFLICT (throttle_key) DO UPDATE SET
         failures = CASE WHEN login_throttle.window_started_at + make_interval(secs => $2) > now()
                         THEN login_throttle.failures + 1 ELSE 1 END,
         window_started_at = CASE WHEN login_throttle.window_started_at + make_interval(secs => $2) > now()
                                  THEN login_throttle.window_started_at ELSE now() END`,
      [[pairKey(username, address), userKey(username)], this.settings.windowSeconds],
    );
  }

  /** A successful login from the address: its pair count goes; the user name's stays (other addresses failed). */
  async clear(username: string, address: string): Promise<void> {
    await this.db.query('DELETE FROM calc.login_throttle WHERE throttle_key = $1', [
      pairKey(username, address),
    ]);
  }
}
