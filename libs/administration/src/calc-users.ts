import type { DataSource, EntityManager } from 'typeorm';
import type { CalcUserPage, CalcUserView } from '@broker/contracts';
import {
  checkPasswordPolicy,
  hashPassword,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  type PasswordWeakness,
} from '@broker/auth';
import { inTransaction, recordAuditEvent, type WriteContext } from './audit-trail.js';
import { conflict, invalid, notFound } from './errors.js';
import { pageOf, type PageRequest } from './paging.js';
import { utc } from './sql.js';
import { tenantIdOf } from './tenants.js';

const CALC_USER_VIEW = `u.username, u.disabled, ${utc('u.created_at')} AS created_at, ${utc('u.updated_at')} AS updated_at`;

/** What the platform's password rules say of a password, in the administration API's language. */
function weaknessMessage(weakness: PasswordWeakness): string {
  switch (weakness.kind) {
    case 'too-short':
      return `password must be at least ${PASSWORD_MIN_LENGTH} characters long`;
    case 'too-long':
      return `password must be at most ${PASSWORD_MAX_LENGTH} characters long`;
    case 'blank':
      return 'password must not consist of blanks only';
    case 'contains-user-name':
      return 'password must not contain the user name';
    case 'too-easy':
      return 'password is too easy to guess: choose several words that do not belong together';
  }
}

/** The password as stored (argon2id) once it follows the platform's password rules; a 400 naming the rule else. */
async function passwordHashOf(username: string, password: string): Promise<string> {
  const checked = checkPasswordPolicy(password, { userName: username });
  if ('weakness' in checked) throw invalid(weaknessMessage(checked.weakness));
  return hashPassword(checked.password);
}

/**
 * Users of the calculation service (area B), per tenant. User names are unique across tenants (area B's login
 * names no tenant). A disabled user's tokens are refused within CALC_USER_STATUS_SECONDS; a user enabled again can
 * log in at once (area B reads the state again for a token issued after it remembered the user as disabled).
 */
export class CalcUserAdministration {
  constructor(private readonly db: DataSource) {}

  async create(
    context: WriteContext,
    tenantCode: string,
    request: { username: string; password: string },
  ): Promise<CalcUserView> {
    const passwordHash = await passwordHashOf(request.username, request.password);
    return inTransaction(this.db, context, async (tx) => {
      const tenantId = await tenantIdOf(tx, tenantCode);
      const [row] = await tx.query<CalcUserView[]>(
        `INSERT INTO calc.user_account AS u (tenant_code, username, password_hash) VALUES ($1, $2, $3)
         ON CONFLICT (lower(username)) DO NOTHING RETURNING ${CALC_USER_VIEW}`,
        [tenantCode, request.username, passwordHash],
      );
      if (!row) throw conflict(`The user name ${request.username} is taken`);
      await recordAuditEvent(tx, context.actor, {
        tenantId,
        action: context.operation ?? 'createCalcUser',
        target: `calc-users/${request.username}`,
        changes: { username: request.username, password_changed: true },
      });
      return row;
    });
  }

  async update(
    context: WriteContext,
    tenantCode: string,
    username: string,
    changes: { disabled?: boolean; password?: string },
  ): Promise<CalcUserView> {
    const passwordHash =
      changes.password === undefined ? undefined : await passwordHashOf(username, changes.password);
    return inTransaction(this.db, context, async (tx) => {
      const tenantId = await tenantIdOf(tx, tenantCode);
      const current = await this.row(tx, tenantCode, username);
      const changed: Record<string, unknown> = {};
      if (changes.disabled !== undefined && changes.disabled !== current.disabled)
        changed.disabled = changes.disabled;
      if (passwordHash !== undefined) changed.password_changed = true;
      if (Object.keys(changed).length > 0) {
        await tx.query(
          `UPDATE calc.user_account SET disabled = $2, password_hash = coalesce($3, password_hash) WHERE id = $1`,
          [current.id, changes.disabled ?? current.disabled, passwordHash ?? null],
        );
        await recordAuditEvent(tx, context.actor, {
          tenantId,
          action: context.operation ?? 'updateCalcUser',
          target: `calc-users/${current.username}`,
          changes: changed,
        });
      }
      return this.view(tx, current.id);
    });
  }

  async list(tenantCode: string, page: PageRequest): Promise<CalcUserPage> {
    const db = this.db.manager;
    await tenantIdOf(db, tenantCode);
    return pageOf<CalcUserView>(
      db,
      {
        select: CALC_USER_VIEW,
        from: 'calc.user_account u WHERE u.tenant_code = $1',
        orderBy: 'lower(u.username)',
        parameters: [tenantCode],
      },
      page,
    );
  }

  async get(tenantCode: string, username: string): Promise<CalcUserView> {
    const db = this.db.manager;
    await tenantIdOf(db, tenantCode);
    const [view] = await db.query<CalcUserView[]>(
      `SELECT ${CALC_USER_VIEW} FROM calc.user_account u WHERE u.tenant_code = $1 AND lower(u.username) = lower($2)`,
      [tenantCode, username],
    );
    if (!view) throw notFound(`Calculation user ${username} does not exist`);
    return view;
  }

  /** The stored password hash of a user of the tenant (the demo seed's check before it writes). */
  async passwordHashOf(tenantCode: string, username: string): Promise<string | undefined> {
    const [row] = await this.db.query<{ hash: string }[]>(
      'SELECT password_hash AS hash FROM calc.user_account WHERE tenant_code = $1 AND lower(username) = lower($2)',
      [tenantCode, username],
    );
    return row?.hash;
  }

  private async row(
    db: EntityManager,
    tenantCode: string,
    username: string,
  ): Promise<{ id: string; username: string; disabled: boolean }> {
    const [row] = await db.query<{ id: string; username: string; disabled: boolean }[]>(
      `SELECT id::text, username, disabled FROM calc.user_account
        WHERE tenant_code = $1 AND lower(username) = lower($2) FOR UPDATE`,
      [tenantCode, username],
    );
    if (!row) throw notFound(`Calculation user ${username} does not exist`);
    return row;
  }

  private async view(db: EntityManager, id: string): Promise<CalcUserView> {
    const [view] = await db.query<CalcUserView[]>(
      `SELECT ${CALC_USER_VIEW} FROM calc.user_account u WHERE u.id = $1`,
      [id],
    );
    return view;
  }
}
