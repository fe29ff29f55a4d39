import type { ContactContext, ContactKind } from '@broker/contracts';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

export interface ContactRecord {
  id: string;
  context: ContactContext;
  type: ContactKind;
  value: string;
  standard: boolean;
}

const SELECT = `SELECT id::text, context, contact_type AS type, value, is_standard AS standard FROM broker.contact`;

/**
 * Contact entries of a customer. The standard entry stays unique per kind: marking one standard unmarks the
 * others, and a kind always has a standard entry while it has any entry at all.
 */
@Injectable()
export class ContactRepository {
  async list(db: EntityManager, customerId: string): Promise<ContactRecord[]> {
    return db.query(`${SELECT} WHERE customer_id = $1 ORDER BY contact_type, id`, [customerId]);
  }

  async find(db: EntityManager, customerId: string, contactId: string): Promise<ContactRecord | undefined> {
    const [row] = await db.query<ContactRecord[]>(`${SELECT} WHERE customer_id = $1 AND id = $2`, [
      customerId,
      contactId,
    ]);
    return row;
  }

  async insert(
    db: EntityManager,
    tenantId: string,
    customerId: string,
    entry: { context: string; type: string; value: string; standard: boolean },
  ): Promise<string> {
    if (entry.standard) await this.unmarkStandard(db, customerId, entry.type);
    const [row] = await db.query<{ id: string }[]>(
      `INSERT INTO broker.contact (tenant_id, customer_id, context, contact_type, value, is_standard)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id::text`,
      [tenantId, customerId, entry.context, entry.type, entry.value, entry.standard],
    );
    await this.ensureStandard(db, customerId, entry.type);
    return row.id;
  }

  async update(db: EntityManager, customerId: string, contact: ContactRecord): Promise<void> {
    if (contact.standard) await this.unmarkStandard(db, customerId, contact.type, contact.id);
    await db.query('UPDATE broker.contact SET value = $2, is_standard = $3 WHERE id = $1', [
      contact.id,
      contact.value,
      contact.standard,
    ]);
    await this.ensureStandard(db, customerId, contact.type);
  }

  async delete(db: EntityManager, customerId: string, contact: ContactRecord): Promise<void> {
    await db.query('DELETE FROM broker.contact WHERE id = $1', [contact.id]);
    await this.ensureStandard(db, customerId, contact.type);
  }

  private async unmarkStandard(db: EntityManager, customerId: string, type: string, exceptId?: string) {
    await db.query(
      `UPDATE broker.contact SET is_standard = false
        WHERE customer_id = $1 AND contact_type = $2 AND is_standard AND id IS DISTINCT FROM $3::bigint`,
      [customerId, type, exceptId ?? null],
    );
  }

  /** The oldest entry of a kind becomes standard when the kind has entries but no standard one. */
  private async ensureStandard(db: EntityManager, customerId: string, type: string): Promise<void> {
    await db.query(
      `UPDATE broker.contact SET is_standard = true
        WHERE id = (SELECT id FROM broker.contact WHERE customer_id = $1 AND contact_type = $2 ORDER BY id LIMIT 1)
          AND NOT EXISTS (SELECT 1 FROM broker.contact
                           WHERE customer_id = $1 AND contact_type = $2 AND is_standard)`,
      [customerId, type],
    );
  }
}
