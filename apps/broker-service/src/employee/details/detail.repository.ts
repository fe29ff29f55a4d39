import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { DetailType } from '@broker/contracts';

export interface DetailDefinitionRecord {
  id: string;
  key: string;
  name: string;
  type: DetailType;
  options: Record<string, string> | null;
}

export interface DetailValueRecord extends DetailDefinitionRecord {
  value: unknown;
}

/**
 * The detail definitions available to a broker: its own and those of every broker above it (a pool's
 * definitions apply to its sub-brokers); on a key defined twice the nearest broker's definition wins.
 */
const AVAILABLE = `
  WITH RECURSIVE chain(id, depth) AS (
    SELECT id, 0 FROM broker.broker WHERE tenant_id = $1 AND id = $2
    UNION ALL
    SELECT b.parent_id, chain.depth + 1 FROM broker.broker b JOIN chain ON b.id = chain.id
     WHERE b.parent_id IS NOT NULL AND b.tenant_id = $1
  ),
  available AS (
    SELECT DISTINCT ON (d.detail_key) d.id, d.detail_key, d.name, d.value_type, d.options
      FROM broker.customer_detail_definition d JOIN chain ON chain.id = d.broker_id
     WHERE d.tenant_id = $1 ORDER BY d.detail_key, chain.depth
  )`;

const DEFINITION_COLUMNS = `a.id::text, a.detail_key AS key, a.name, a.value_type AS type, a.options`;

@Injectable()
export class DetailRepository {
  /** The definitions available to `brokerId` (all, or the one with `key`). */
  async definitions(
    db: EntityManager,
    tenantId: string,
    brokerId: string,
    key?: string,
  ): Promise<DetailDefinitionRecord[]> {
    return db.query(
      `${AVAILABLE} SELECT ${DEFINITION_COLUMNS} FROM available a
        WHERE $3::text IS NULL OR a.detail_key = $3 ORDER BY a.name, a.detail_key`,
      [tenantId, brokerId, key ?? null],
    );
  }

  /**
   * The customer's values for the definitions available to its broker (`brokerId`), or only the one for `key`
   * (with a null value when it has none yet).
   */
  async values(
    db: EntityManager,
    tenantId: string,
    brokerId: string,
    customerId: string,
    key?: string,
  ): Promise<DetailValueRecord[]> {
    return db.query(
      `${AVAILABLE} SELECT ${DEFINITION_COLUMNS}, v.value
         FROM available a LEFT JOIN broker.customer_detail_value v ON v.definition_id = a.id AND v.customer_id = $3
        WHERE ($4::text IS NULL AND v.value IS NOT NULL) OR a.detail_key = $4
        ORDER BY a.name, a.detail_key`,
      [tenantId, brokerId, customerId, key ?? null],
    );
  }

  async save(db: EntityManager, tenantId: string, customerId: string, definitionId: string, value: unknown) {
    await db.query(
      `INSERT INTO broker.customer_detail_value (tenant_id, customer_id, definition_id, value)
       VALUES ($1, $2, $3, $4::jsonb)
       ON CONFLICT (customer_id, definition_id) DO UPDATE SET value = EXCLUDED.value`,
      [tenantId, customerId, definitionId, JSON.stringify(value)],
    );
  }
}
