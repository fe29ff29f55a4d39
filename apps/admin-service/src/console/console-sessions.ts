import { createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { ApiKeyCipher } from '@broker/auth';
import type { AdminPrincipal } from '../auth/admin-principal.js';
import type { PendingLogin, ProviderTokens } from './openid-login.js';

/** A logged-in person's session as the console reads it; the tokens never leave the server. */
export interface ConsoleSession {
  idHash: Buffer;
  subject: string;
  displayName: string | null;
  role: AdminPrincipal['role'];
  tenantCode: string | null;
  tokens: ProviderTokens;
  expiresAt: Date;
}

export interface SessionLifetimes {
  /** From login to the end, whatever happens. */
  absoluteMs: number;
  /** Without a request. */
  idleMs: number;
}

/** How long a login may stay at the provider before its callback is refused. */
const LOGIN_MS = 10 * 60_000;

interface SessionRow {
  subject: string;
  display_name: string | null;
  role: AdminPrincipal['role'];
  tenant_code: string | null;
  tokens_ciphertext: string;
  expires_at: Date;
}

const hashOf = (id: string) => createHash('sha256').update(id).digest();

/**
 * The console's logins and sessions in PostgreSQL (admin.console_login, admin.console_session): the browser holds
 * a random id; only its hash is stored, with the provider's tokens encrypted under a key derived from
 * ADMIN_SESSION_SECRET. A CSRF token is the session's HMAC under another key derived from it.
 */
export class ConsoleSessions {
  private readonly cipher: ApiKeyCipher;
  private readonly csrfKey: Buffer;

  constructor(
    private readonly db: DataSource,
    secret: string,
    private readonly lifetimes: SessionLifetimes,
  ) {
    this.cipher = new ApiKeyCipher(derivedKey(secret, 'console-session-tokens'));
    this.csrfKey = derivedKey(secret, 'console-csrf');
  }

  /** A login under way: its id for the browser's cookie. Old logins and sessions are cleared on the way. */
  async beginLogin(pending: PendingLogin, returnTo: string): Promise<string> {
    const id = newId();
    await this.db.transaction(async (db) => {
      await db.query('DELETE FROM admin.console_login WHERE expires_at < now()');
      await db.query('DELETE FROM admin.console_session WHERE expires_at < now() OR idle_expires_at < now()');
      await db.query(
        `INSERT INTO admin.console_login (id_hash, state, nonce, code_verifier, return_to, expires_at)
         VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))`,
        [hashOf(id), pending.state, pending.nonce, pending.codeVerifier, returnTo, LOGIN_MS / 1000],
      );
    });
    return id;
  }

  /** The login of the cookie's id, taken (a callback is used once); null when there is none or it expired. */
  async takeLogin(id: string): Promise<(PendingLogin & { returnTo: string }) | null> {
    const rows = await this.db.query<
      { state: string; nonce: string; code_verifier: string; return_to: string }[]
    >(
      `WITH taken AS (DELETE FROM admin.console_login WHERE id_hash = $1 RETURNING *)
       SELECT state, nonce, code_verifier, return_to FROM taken WHERE expires_at > now()`,
      [hashOf(id)],
    );
    const row = rows[0];
    return row
      ? { state: row.state, nonce: row.nonce, codeVerifier: row.code_verifier, returnTo: row.return_to }
      : null;
  }

  /** A new session for the person the tokens name; its id for the browser's cookie. */
  async create(principal: AdminPrincipal, tokens: ProviderTokens): Promise<string> {
    const id = newId();
    await this.db.query(
      `INSERT INTO admin.console_session
         (id_hash, subject, display_name, role, tenant_code, tokens_ciphertext, access_expires_at,
          idle_expires_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, to_timestamp($7 / 1000.0), now() + make_interval(secs => $8),
               now() + make_interval(secs => $9))`,
      [
        hashOf(id),
        principal.subject,
        tokens.displayName,
        principal.role,
        principal.tenantCode,
        this.cipher.encrypt(JSON.stringify(tokens)),
        tokens.accessExpiresAt,
        this.lifetimes.idleMs / 1000,
        this.lifetimes.absoluteMs / 1000,
      ],
    );
    return id;
  }

  /** The live session of the cookie's id, its idle time restarted; null when there is none or it ended. */
  async find(id: string): Promise<ConsoleSession | null> {
    const idHash = hashOf(id);
    // As a common table expression: TypeORM answers a bare UPDATE ... RETURNING with [rows, count].
    const rows = await this.db.query<SessionRow[]>(
      `WITH touched AS (
         UPDATE admin.console_session SET idle_expires_at = now() + make_interval(secs => $2)
          WHERE id_hash = $1 AND expires_at > now() AND idle_expires_at > now()
          RETURNING subject, display_name, role, tenant_code, tokens_ciphertext, expires_at)
       SELECT * FROM touched`,
      [idHash, this.lifetimes.idleMs / 1000],
    );
    return rows[0] ? this.sessionOf(idHash, rows[0]) : null;
  }

  /**
   * Replaces a session's tokens by `renew`'s, with the session row locked, so that concurrent requests of one
   * session renew once; `renew` sees the tokens as stored then (another request may have renewed them already).
   * Answers the session as it is after, or null when `renew` answers null (the session is ended).
   */
  async renewTokens(
    session: ConsoleSession,
    renew: (current: ProviderTokens) => Promise<ProviderTokens | null | 'unchanged'>,
  ): Promise<ConsoleSession | null> {
    return this.db.transaction(async (db) => {
      const rows = await db.query<SessionRow[]>(
        `SELECT subject, display_name, role, tenant_code, tokens_ciphertext, expires_at
           FROM admin.console_session WHERE id_hash = $1 FOR UPDATE`,
        [session.idHash],
      );
      if (!rows[0]) return null;
      const current = this.sessionOf(session.idHash, rows[0]);
      const renewed = await renew(current.tokens);
      if (renewed === 'unchanged') return current;
      if (!renewed) {
        await this.deleteIn(db, session.idHash);
        return null;
      }
      await db.query(
        `UPDATE admin.console_session SET tokens_ciphertext = $2, access_expires_at = to_timestamp($3 / 1000.0),
                display_name = coalesce($4, display_name)
          WHERE id_hash = $1`,
        [
          session.idHash,
          this.cipher.encrypt(JSON.stringify(renewed)),
          renewed.accessExpiresAt,
          renewed.displayName,
        ],
      );
      return { ...current, tokens: renewed };
    });
  }

  async end(session: ConsoleSession): Promise<void> {
    await this.deleteIn(this.db.manager, session.idHash);
  }

  /** The CSRF token of a session: what its page sends back with every write. */
  csrfToken(session: ConsoleSession): string {
    return createHmac('sha256', this.csrfKey).update(session.idHash).digest('base64url');
  }

  isCsrfToken(session: ConsoleSession, candidate: string | undefined): boolean {
    const expected = Buffer.from(this.csrfToken(session));
    const given = Buffer.from(candidate ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private async deleteIn(db: EntityManager, idHash: Buffer): Promise<void> {
    await db.query('DELETE FROM admin.console_session WHERE id_hash = $1', [idHash]);
  }

  private sessionOf(idHash: Buffer, row: SessionRow): ConsoleSession {
    return {
      idHash,
      subject: row.subject,
      displayName: row.display_name,
      role: row.role,
      tenantCode: row.tenant_code,
      tokens: JSON.parse(this.cipher.decrypt(row.tokens_ciphertext)) as ProviderTokens,
      expiresAt: row.expires_at,
    };
  }
}

/** A browser's session or login id: 256 random bits. */
function newId(): string {
  return randomBytes(32).toString('base64url');
}

function derivedKey(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'broker-platform-admin-console', purpose, 32));
}
