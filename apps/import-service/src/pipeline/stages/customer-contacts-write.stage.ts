import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { deferSearchRefresh } from '@broker/inventory';
import { SqlStage } from '../sql-stage.js';

/** The main residence (address 0) replaced as a whole when the file gives any part of an address. */
const WRITE_MAIN_ADDRESSES = `
  WITH written AS (
    INSERT INTO broker.address (tenant_id, customer_id, address_no, address_type, street, postal_code, city, country)
    SELECT p.tenant_id, m.customer_id, 0, 'hauptwohnsitz', m.street, m.postal_code, m.city, m.country
      FROM "import".merged_customer m JOIN "import".import_process p ON p.id = m.process_id
     WHERE m.process_id = $1 AND m.rejected_reason IS NULL
       AND coalesce(m.street, m.postal_code, m.city) IS NOT NULL
     ORDER BY m.customer_id
    ON CONFLICT (customer_id, address_no) DO UPDATE
       SET street = EXCLUDED.street, postal_code = EXCLUDED.postal_code, city = EXCLUDED.city,
           country = EXCLUDED.country
    RETURNING 1)
  SELECT count(*)::int AS count FROM written`;

/**
 * Contact entries the customer does not have yet (same kind, same value ignoring case) are added; the first new
 * one of a kind becomes the standard entry when the customer has no standard entry of that kind. The customer's
 * entries and standard entries are looked up per offered entry (LATERAL ... LIMIT 1): as NOT EXISTS, PostgreSQL
 * planned an anti join over every contact of the tenant (it guesses 100 entries per jsonb array): 14-15 s of each of
 * four 50,000-contract imports into a tenant of 2,000,000 customers, against 2 s into one of 200,000.
 */
const ADD_CONTACTS = `
  WITH offered AS (
    SELECT p.tenant_id, m.customer_id,
           coalesce(entry->>'context',
                    CASE WHEN m.person_type = 'juristisch' THEN 'geschaeftlich' ELSE 'privat' END) AS context,
           entry->>'type' AS contact_type, entry->>'value' AS value
      FROM "import".merged_customer m JOIN "import".import_process p ON p.id = m.process_id,
           jsonb_array_elements(m.contacts) entry
     WHERE m.process_id = $1 AND m.rejected_reason IS NULL),
  fresh AS (
    SELECT o.*, row_number() OVER (PARTITION BY o.customer_id, o.contact_type ORDER BY o.value) AS rank
      FROM offered o
      LEFT JOIN LATERAL (SELECT true AS known FROM broker.contact k
                          WHERE k.customer_id = o.customer_id AND k.contact_type = o.contact_type
                            AND lower(k.value) = lower(o.value)
                          LIMIT 1) existing ON true
     WHERE existing.known IS NULL),
  written AS (
    INSERT INTO broker.contact (tenant_id, customer_id, context, contact_type, value, is_standard)
    SELECT f.tenant_id, f.customer_id, f.context, f.contact_type, f.value, f.rank = 1 AND standard.known IS NULL
      FROM fresh f
      LEFT JOIN LATERAL (SELECT true AS known FROM broker.contact k
                          WHERE k.customer_id = f.customer_id AND k.contact_type = f.contact_type AND k.is_standard
                          LIMIT 1) standard ON true
     ORDER BY f.customer_id
    RETURNING 1)
  SELECT count(*)::int AS count FROM written`;

/**
 * customersFinalized → customersDone: the written customers' main addresses and contact entries. Their search
 * documents are written with the contracts (ContractsWriteStage), beside them.
 */
@Injectable()
export class CustomerContactsWriteStage extends SqlStage {
  readonly from = 'customersFinalized';

  protected async runIn(tx: EntityManager, processId: string): Promise<void> {
    await deferSearchRefresh(tx);
    const [addresses] = await tx.query<{ count: number }[]>(WRITE_MAIN_ADDRESSES, [processId]);
    const [contacts] = await tx.query<{ count: number }[]>(ADD_CONTACTS, [processId]);
    await this.staging.recordCounts(tx, processId, {
      addressesWritten: addresses?.count ?? 0,
      contactsAdded: contacts?.count ?? 0,
    });
  }
}
