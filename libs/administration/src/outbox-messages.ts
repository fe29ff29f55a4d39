import type { DataSource, EntityManager } from 'typeorm';
import type { OutboxMessagePage, OutboxMessageView } from '@broker/contracts';
import { inTransaction, recordAuditEvent, type WriteContext } from './audit-trail.js';
import { conflict, notFound } from './errors.js';
import { pageOf, type PageRequest } from './paging.js';
import { SqlFilter, utc } from './sql.js';
import { tenantIdOf } from './tenants.js';

/**
 * Hands a message to the broker service's delivery at once. Without one the broker service's sweep takes the message
 * up (NOTIFY_SWEEP_INTERVAL_MS).
 */
export interface CustomerMessageQueue {
  deliverNow(messageId: string): Promise<void>;
}

export interface OutboxMessageFilter {
  status?: OutboxMessageView['status'];
  channel?: OutboxMessageView['channel'];
}

/** The text's stand-in for a link with a token (the broker service's LINK_PLACEHOLDER); the link is kept apart. */
const LINK_PLACEHOLDER = '{{link}}';

/**
 * A message can go out again when it failed, or waits after failed attempts, unless its link was wiped (a failed
 * one's token is not kept).
 */
const RESENDABLE = `((m.status = 'failed' OR (m.status = 'pending' AND m.attempts > 0))
  AND (m.link_ciphertext IS NOT NULL OR strpos(m.body, '${LINK_PLACEHOLDER}') = 0))`;
const MESSAGE_VIEW = `m.id::text, b.broker_number AS broker, m.kind, m.channel, m.recipient, m.subject, m.status,
  m.attempts, m.last_error, ${RESENDABLE} AS resendable, ${utc('m.created_at')} AS created_at,
  ${utc('m.updated_at')} AS updated_at, ${utc('m.sent_at')} AS sent_at`;
const MESSAGE_FROM = `broker.outbox_message m
  JOIN broker.customer c ON c.tenant_id = m.tenant_id AND c.id = m.customer_id
  JOIN broker.broker b ON b.tenant_id = c.tenant_id AND b.id = c.broker_id`;

/**
 * The messages to a tenant's customers (e-mail, SMS) in the broker service's outbox: what waits, what failed and
 * why; a message that failed or waits is sent again, at once. Resending is audited; the text is never shown (it may hold personal data).
 */
export class OutboxMessageOperations {
  constructor(
    private readonly db: DataSource,
    private readonly delivery: CustomerMessageQueue | null,
  ) {}

  async list(tenantCode: string, filter: OutboxMessageFilter, page: PageRequest): Promise<OutboxMessagePage> {
    const db = this.db.manager;
    const where = new SqlFilter().where('m.tenant_id = ?', await tenantIdOf(db, tenantCode));
    if (filter.status !== undefined) where.where('m.status = ?', filter.status);
    if (filter.channel !== undefined) where.where('m.channel = ?', filter.channel);
    return pageOf<OutboxMessageView>(
      db,
      {
        select: MESSAGE_VIEW,
        from: `${MESSAGE_FROM} WHERE ${where.clause}`,
        orderBy: 'm.id DESC',
        parameters: where.parameters,
      },
      page,
    );
  }

  /** resendOutboxMessage: the message pending again with fresh attempts. */
  async resend(context: WriteContext, tenantCode: string, messageId: string): Promise<OutboxMessageView> {
    const resent = await inTransaction(this.db, context, async (tx) => {
      const tenantId = await tenantIdOf(tx, tenantCode);
      const message = await this.message(tx, tenantId, messageId, 'FOR UPDATE OF m');
      if (message.status === 'sent') throw conflict('The message was sent already');
      if (message.status === 'pending' && message.attempts === 0)
        throw conflict('The message waits for its first attempt already');
      if (!message.resendable)
        throw conflict('The link of this message expired with it: ask for a new link instead of resending');
      await tx.query(
        `UPDATE broker.outbox_message SET status = 'pending', attempts = 0, last_error = NULL WHERE id = $1`,
        [messageId],
      );
      await recordAuditEvent(tx, context.actor, {
        tenantId,
        action: context.operation ?? 'resendOutboxMessage',
        target: `outbox-messages/${messageId}`,
        changes: { status: 'pending', previous_status: message.status },
      });
      return this.message(tx, tenantId, messageId);
    });
    await this.delivery?.deliverNow(messageId);
    return resent;
  }

  private async message(
    db: EntityManager,
    tenantId: string,
    messageId: string,
    lock = '',
  ): Promise<OutboxMessageView> {
    const [row] = /^[1-9][0-9]{0,17}$/.test(messageId)
      ? await db.query<OutboxMessageView[]>(
          `SELECT ${MESSAGE_VIEW} FROM ${MESSAGE_FROM} WHERE m.tenant_id = $1 AND m.id = $2 ${lock}`,
          [tenantId, messageId],
        )
      : [];
    if (!row) throw notFound(`Message ${messageId} does not exist`);
    return row;
  }
}
