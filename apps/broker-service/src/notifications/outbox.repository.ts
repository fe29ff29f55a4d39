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
  /** The text; a link with a secret token stands in it as LINK_PLACEHOLDER. */
  body: string;
  /** The link, encrypted; wiped once the message is delivered. */
  linkCiphertext: string | null;
}

export const LINK_PLACEHOLDER = '{{link}}';

/** About two days of retries at the default sweep interval (each sweep allows 5 attempts with backoff). */
export const MAX_ATTEMPTS = 50;

export interface StoredMessage extends OutgoingMessage {
  id: string;
  status: 'pending' | 'sent' | 'failed';
}

const SELECT = `SELECT id::text, tenant_id::text AS "tenantId", customer_id::text AS "customerId", kind, channel,
                       recipient, subject, body, link_ciphertext AS "linkCiphertext", status
                  FROM broker.outbox_message`;

/** The outbox: messages are written with the change that causes them and stay until they are delivered. */
@Injectable()
export class OutboxRepository {
  async add(db: EntityManager, message: OutgoingMessage): Promise<string> {
    const [row] = await db.query<{ id: string }[]>(
      `INSERT INTO broker.outbox_message (tenant_id, customer_id, kind, channel, recipient, subject, body,
                                          link_ciphertext)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id::text`,
      [
        message.tenantId,
        message.customerId,
        message.kind,
        message.channel,
        message.recipient,
        message.subject,
        message.body,
        message.linkCiphertext,
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
      `UPDATE broker.outbox_message
          SET status = 'sent', sent_at = now(), attempts = attempts + 1, last_error = NULL, link_ciphertext = NULL
        WHERE id = $1`,
      [id],
    );
  }

  /**
   * Counts a failed attempt. A permanent failure (the server refused the recipient), or the last allowed attempt,
   * ends the message as failed; its link is wiped like a delivered one's.
   */
  async recordFailure(db: EntityManager, id: string, error: string, permanent: boolean): Promise<void> {
    await db.query(
      `UPDATE broker.outbox_message
          SET attempts = attempts + 1, last_error = $2,
              status = CASE WHEN $3 OR attempts + 1 >= $4 THEN 'failed' ELSE status END,
              link_ciphertext = CASE WHEN $3 OR attempts + 1 >= $4 THEN NULL ELSE link_ciphertext END
        WHERE id = $1`,
      [id, error.slice(0, 1000), permanent, MAX_ATTEMPTS],
    );
  }

  /** Pending messages not touched for `idleMs`: their delivery job ended without success or was lost. */
  async findStale(db: EntityManager, idleMs: number): Promise<string[]> {
    const rows = await db.query<{ id: string }[]>(
      `SELECT id::text FROM broker.outbox_message
        WHERE status = 'pending' AND updated_at < now() - make_interval(secs => $1 / 1000.0)
        ORDER BY outbox_message.id LIMIT 500`,
      [idleMs],
    );
    return rows.map((row) => row.id);
  }
}
