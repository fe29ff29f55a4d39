import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { UntervermittlerView } from '@broker/contracts';
import { visibleBrokersCte } from '@broker/inventory';
import type { BrokerTreeRoot } from '../../visible-broker.js';
import type { SubBrokerColumn } from './sub-broker-changes.js';

/** Untervermittlerdatensatz of broker `b` (its superior `p`, null at the top), as JSON object fields. */
const VIEW_FIELDS = `'Vermittler', b.broker_number, 'Uebervermittler', p.broker_number, 'Name', b.name,
  'Namenszusatz', b.name_suffix,
  'Adresse', json_build_object('Strasse', b.street, 'PLZ', b.postal_code, 'Ort', b.city),
  'Kommunikationsdaten', json_build_object('Email', b.email, 'Telefon', b.phone, 'Mobil', b.mobile, 'Fax', b.fax),
  'Website', b.website, 'Impressum', b.imprint`;
const VIEW_FROM =
  'broker.broker b LEFT JOIN broker.broker p ON p.tenant_id = b.tenant_id AND p.id = b.parent_id';

@Injectable()
export class SubBrokerRepository {
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
    const [row] = await db.query<{ view: UntervermittlerView }[]>(
      `SELECT json_build_object(${VIEW_FIELDS}) AS view FROM ${VIEW_FROM} WHERE b.tenant_id = $1 AND b.id = $2`,
      [tenantId, brokerId],
    );
    return row.view;
  }

  /** The caller's broker or one below it, and when it last changed; undefined when the caller may not see it. */
  async find(
    db: EntityManager,
    caller: BrokerTreeRoot,
    brokerNumber: string,
  ): Promise<{ view: UntervermittlerView; lastModified: Date } | undefined> {
    const [row] = await db.query<{ view: UntervermittlerView; changed: Date }[]>(
      `WITH RECURSIVE ${visibleBrokersCte(1, 2)}
       SELECT json_build_object(${VIEW_FIELDS}) AS view, b.updated_at AS changed
         FROM ${VIEW_FROM} JOIN visible_broker v ON v.id = b.id
        WHERE b.tenant_id = $1 AND b.broker_number = $3`,
      [caller.tenantId, caller.brokerId, brokerNumber],
    );
    return row && { view: row.view, lastModified: row.changed };
  }

  /**
   * A page of every broker below the caller's, by number, their count, and when the list last changed: a broker of
   * it changed or was added, or the tenant's tree changed shape (a broker moved in or out).
   */
  async listBelow(
    db: EntityManager,
    caller: BrokerTreeRoot,
    page: { from: number; size: number },
  ): Promise<{ views: UntervermittlerView[]; total: number; lastModified: Date }> {
    const [row] = await db.query<{ views: UntervermittlerView[]; total: number; changed: Date }[]>(
      `WITH RECURSIVE ${visibleBrokersCte(1, 2)},
       below AS (SELECT id FROM visible_broker WHERE id <> $2)
       SELECT (SELECT count(*)::int FROM below) AS total,
              greatest((SELECT max(x.updated_at) FROM broker.broker x JOIN below USING (id)),
                       (SELECT changed_at FROM broker.hierarchy_change WHERE tenant_id = $1),
                       (SELECT created_at FROM broker.broker WHERE id = $2)) AS changed,
              (SELECT coalesce(json_agg(page.view ORDER BY page.number), '[]')
                 FROM (SELECT json_build_object(${VIEW_FIELDS}) AS view, b.broker_number AS number
                         FROM ${VIEW_FROM} JOIN below ON below.id = b.id
                        WHERE b.tenant_id = $1 ORDER BY b.broker_number LIMIT $3 OFFSET $4) page) AS views`,
      [caller.tenantId, caller.brokerId, page.size, page.from],
    );
    return { views: row.views, total: row.total, lastModified: row.changed };
  }
}
