import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

export interface OutgoingMessage {
  tenantId: string;
  customerId: string;
  /** What the message is about: benutzername, passwortlink, erstinfo, unterschriftenlink. */
  kind: string;
  channel: 'email' | 'sms';
  recipient: string;
  subject: string | null;
  body: string;
}

export interface StoredMessage extends OutgoingMessage {
  id: string;
  status: 'pending' | 'sent';
}

const SELECT = `SELECT id::text, tenant_id::text AS "tenantId", customer_id::text AS "customerId", kind, channel,
                       recipient, subject, body, status FROM broker.outbox_message`;

/** The outbox: messages are written with the change that causes them and stay until they are delivered. */
@Injectable()
export class OutboxRepository {
  async add(db: EntityManager, message: OutgoingMessage): Promise<string> {
    const [row] = await db.query<{ id: string }[]>(
      `INSERT INTO broker.outbox_message (tenant_id, customer_id, kind, channel, recipient, subject, body)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id::text`,
      [
        message.tenantId,
        message.customerId,
        message.kind,
        message.channel,
        message.recipient,
        message.subject,
        message.body,
      ],
    );
    return row.id;
  }

  async find(db: EntityManager, id: string): Promise<StoredMessage | undefined> {
    const [row] = await db.query<StoredMessage[]>(`${SELECT} WHERE id = $1`, [id]);
    return row;
  }

  async markSent(db: EntityManager, id: string): Promise<void> {
    await db.query(
      `UPDATE broker.outbox_message SET status = 'sent', sent_at = now(), attempts = attempts + 1, last_error = NULL
        WHERE id = $1`,
      [id],
    );
  }

  async recordFailure(db: EntityManager, id: string, error: string): Promise<void> {
    await db.query(
      'UPDATE broker.outbox_message SET attempts = attempts + 1, last_error = $2 WHERE id = $1',
      [id, error.slice(0, 1000)],
    );
  }

  /** Pending messages not touched for `idleMs`: their delivery job ended without success or was lost. */
  async findStale(db: EntityManager, idleMs: number): Promise<string[]> {
    const rows = await db.query<{ id: string }[]>(
      `SELECT id::text FROM broker.outbox_message
        WHERE status = 'pending' AND updated_at < now() - make_interval(secs => $1 / 1000.0)
        ORDER BY id LIMIT 500`,
      [idleMs],
    );
    return rows.map((row) => row.id);
  }
}
