import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

export const LOGIN_THROTTLE_SETTINGS = Symbol('LOGIN_THROTTLE_SETTINGS');

export interface LoginThrottleSettings {
  maxFailures: number;
  windowSeconds: number;
}

/**
 * Failed logins counted per user name and client address in PostgreSQL (shared by every instance). Once the
 * maximum is reached within the window, attempts are refused until the window ends, even with the right password.
 */
@Injectable()
export class LoginThrottle {
  constructor(
    private readonly db: DataSource,
    @Inject(LOGIN_THROTTLE_SETTINGS) private readonly settings: LoginThrottleSettings,
  ) {}

  /** Seconds until attempts are allowed again, or 0 when they are allowed now. */
  async retryAfter(key: string): Promise<number> {
    const [row] = await this.db.query<{ seconds: number }[]>(
      `SELECT ceil(extract(epoch FROM window_started_at + make_interval(secs => $2) - now()))::int AS seconds
         FROM calc.login_throttle
        WHERE throttle_key = $1 AND failures >= $3 AND window_started_at + make_interval(secs => $2) > now()`,
      [key, this.settings.windowSeconds, this.settings.maxFailures],
    );
    return row ? Math.max(row.seconds, 1) : 0;
  }

  /** Counts a failure; a window that has ended starts again. */
  async recordFailure(key: string): Promise<void> {
    await this.db.query(
      `INSERT INTO calc.login_throttle (throttle_key, failures, window_started_at) VALUES ($1, 1, now())
       ON CONFLICT (throttle_key) DO UPDATE SET
         failures = CASE WHEN login_throttle.window_started_at + make_interval(secs => $2) > now()
                         THEN login_throttle.failures + 1 ELSE 1 END,
         window_started_at = CASE WHEN login_throttle.window_started_at + make_interval(secs => $2) > now()
                                  THEN login_throttle.window_started_at ELSE now() END`,
      [key, this.settings.windowSeconds],
    );
  }

  async clear(key: string): Promise<void> {
    await this.db.query('DELETE FROM calc.login_throttle WHERE throttle_key = $1', [key]);
  }
}
