import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { LINK_STATE_COLUMNS, type LinkState } from '../customer-pages/link-parts.js';
import type { CustomerClient } from '../customer-pages/link-page.controller.js';
import type { BrokerContact } from '../customer-pages/page-shell.js';
import { sha256Hex } from '../notifications/link-tokens.js';

/** A password link with what its page shows: the customer's names and user name, and the broker. */
export interface PasswordLink extends LinkState {
  customer: {
    userName: string | null;
    firstName: string | null;
    lastName: string | null;
    companyName: string | null;
  };
  broker: BrokerContact;
}

/**
 * Redeems the password links that notifications/link-tokens.ts issues (purpose passwort) and stores the
 * customer's password hash. The state is decided by the database clock, like the expiry was set.
 */
@Injectable()
export class PasswordRepository {
  /** The link of `token` in the tenant, locked for update with `lock`; undefined when there is none. */
  async find(
    db: EntityManager,
    tenantCode: string,
    token: string,
    lock = false,
  ): Promise<PasswordLink | undefined> {
    const [row] = await db.query<PasswordLink[]>(
      `SELECT ${LINK_STATE_COLUMNS},
              json_build_object('userName', c.user_name, 'firstName', c.first_name, 'lastName', c.last_name,
                                'companyName', c.company_name) AS customer,
              json_build_object('name', b.name, 'email', b.email, 'phone', b.phone) AS broker
         FROM broker.customer_link_token t
         JOIN broker.tenant tn ON tn.id = t.tenant_id
         JOIN broker.customer c ON c.id = t.customer_id
         JOIN broker.broker b ON b.id = c.broker_id
        WHERE tn.code = $1 AND t.token_sha256 = $2 AND t.purpose = 'passwort'
        ${lock ? 'FOR UPDATE OF t' : ''}`,
      [tenantCode, sha256Hex(token)],
    );
    return row;
  }

  /**
   * Stores the hash as the customer's password, spends this link and every other open password link of the
   * customer (an older mail must not set it again), and records the audit event: in the caller's transaction,
   * with the link locked by `find`.
   */
  async storePassword(
    db: EntityManager,
    link: PasswordLink,
    passwordHash: string,
    client: CustomerClient,
  ): Promise<Date> {
    const [stored] = await db.query<{ setAt: Date }[]>(
      `INSERT INTO broker.customer_password (tenant_id, customer_id, password_hash) VALUES ($1, $2, $3)
       ON CONFLICT (tenant_id, customer_id) DO UPDATE SET password_hash = EXCLUDED.password_hash, set_at = now()
       RETURNING set_at AS "setAt"`,
      [link.tenantId, link.customerId, passwordHash],
    );
    const spent = await db.query<{ id: string }[]>(
      `WITH spent AS (
         UPDATE broker.customer_link_token SET used_at = now()
          WHERE tenant_id = $1 AND customer_id = $2 AND purpose = 'passwort' AND used_at IS NULL
          RETURNING id
       )
       SELECT id::text FROM spent`,
      [link.tenantId, link.customerId],
    );
    await db.query(
      `INSERT INTO broker.audit_event
         (tenant_id, customer_id, action, actor_kind, actor, target, client_address, user_agent, details)
       VALUES ($1, $2, 'passwort_gesetzt', 'customer', 'kunde', $6, $3, $4, $5)`,
      [
        link.tenantId,
        link.customerId,
        client.address,
        client.userAgent,
        { linkId: link.id, linksSpent: spent.map((row) => row.id) },
        `customers/${link.customerId}`,
      ],
    );
    return stored.setAt;
  }
}
