import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type LoginPrincipal, passwordMatches } from '@broker/auth';

/** A valid argon2id hash of a random password: checked for unknown users, so both cases take as long. */
const DECOY_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$q7W5q9iOaK71w5WNlzvWkQ$X/MVPyjN7xUyoN+BIWsTNsstbwksFoQ6R3ij4zMyHFs';

/** Users of the calculation service, with argon2id password hashes in `calc.user_account`. */
@Injectable()
export class UserAccounts {
  constructor(private readonly db: DataSource) {}

  /** The user when name and password match an enabled account, else undefined (never saying which part failed). */
  async authenticate(username: string, password: string): Promise<LoginPrincipal | undefined> {
    const [account] = await this.db.query<{ id: string; username: string; tenant: string; hash: string }[]>(
      `SELECT id::text, username, tenant_code AS tenant, password_hash AS hash FROM calc.user_account
        WHERE lower(username) = lower($1) AND NOT disabled`,
      [username],
    );
    const matches = await passwordMatches(account?.hash ?? DECOY_HASH, password);
    if (!account || !matches) return undefined;
    return { userId: account.id, username: account.username, tenant: account.tenant };
  }

  /** Whether the user exists and is enabled (ACTIVE_USERS asks, for the tokens already issued). */
  async isActive(userId: string): Promise<boolean> {
    const [account] = await this.db.query<{ active: boolean }[]>(
      'SELECT NOT disabled AS active FROM calc.user_account WHERE id = $1',
      [userId],
    );
    return account?.active ?? false;
  }
}
