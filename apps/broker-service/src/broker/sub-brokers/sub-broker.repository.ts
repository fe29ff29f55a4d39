import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { UntervermittlerView } from '@broker/contracts';
import { visibleBrokersCte } from '@broker/inventory';
import type { SubBrokerColumn } from './sub-broker-changes.js';

@Injectable()
export class SubBrokerRepository {
  /**
   * The tenant's broker tree for this transaction: `exclusive` for a move (two concurrent moves cannot build a
   * cycle between them), shared for an edit (a move cannot take the broker out of the caller's tree meanwhile).
   */
  async lockHierarchy(db: EntityManager, tenantId: string, mode: 'shared' | 'exclusive'): Promise<void> {
    const lock = mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
    await db.query(`SELECT ${lock}(hashtextextended('broker.broker hierarchy ' || $1, 0))`, [tenantId]);
  }

  /** Whether `brokerId` is `rootId` or below it. */
  async isAtOrBelow(db: EntityManager, tenantId: string, rootId: string, brokerId: string): Promise<boolean> {
    const [row] = await db.query<{ found: boolean }[]>(
      `WITH RECURSIVE ${visibleBrokersCte(1, 2)}
       SELECT EXISTS (SELECT 1 FROM visible_broker WHERE id = $3) AS found`,
      [tenantId, rootId, brokerId],
    );
    return row.found;
  }

  async update(
    db: EntityManager,
    tenantId: string,
    brokerId: string,
    changes: ReadonlyMap<SubBrokerColumn | 'parent_id', string | null>,
  ): Promise<void> {
    if (changes.size === 0) return;
    const columns = [...changes.keys()];
    await db.query(
      `UPDATE broker.broker SET ${columns.map((column, index) => `${column} = $${index + 3}`).join(', ')}
        WHERE tenant_id = $1 AND id = $2`,
      [tenantId, brokerId, ...changes.values()],
    );
  }

  async read(db: EntityManager, tenantId: string, brokerId: string): Promise<UntervermittlerView> {
    const [row] = await db.query<UntervermittlerView[]>(
      `SELECT b.broker_number AS "Vermittler", p.broker_number AS "Uebervermittler", b.name AS "Name",
              b.name_suffix AS "Namenszusatz",
              json_build_object('Strasse', b.street, 'PLZ', b.postal_code, 'Ort', b.city) AS "Adresse",
              json_build_object('Email', b.email, 'Telefon', b.phone, 'Mobil', b.mobile, 'Fax', b.fax)
                AS "Kommunikationsdaten",
              b.website AS "Website", b.imprint AS "Impressum"
         FROM broker.broker b
         JOIN broker.broker p ON p.tenant_id = b.tenant_id AND p.id = b.parent_id
        WHERE b.tenant_id = $1 AND b.id = $2`,
      [tenantId, brokerId],
    );
    return row;
  }
}
