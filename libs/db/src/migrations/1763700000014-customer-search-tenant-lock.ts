import type { MigrationInterface, QueryRunner } from 'typeorm';
import {
  createMoveFunction,
  createRefresh,
  DATABASE_HIERARCHY_LOCKING,
  type HierarchyLocking,
} from './1763700000013-customer-search-by-broker.js';

/**
 * Moves and refreshes take turns per tenant, and only for real moves. Before, every update of a broker row (a new
 * address of a sub-broker too) took the one database-wide lock exclusively, so it waited for every refresh in
 * progress, an import's refresh of its customers' documents included, in any tenant; and every refresh waited
 * for any tenant's move.
 *
 * Now an update that changes no parent takes no lock, and a move locks (exclusively) only the tenants of the
 * brokers it moves; a refresh locks (shared) the tenants of its customers, in tenant order, as a move does.
 */
const TENANT_HIERARCHY_LOCKING: HierarchyLocking = {
  refresh: `PERFORM pg_advisory_xact_lock_shared(broker.search_hierarchy_lock(t.tenant_id))
              FROM (SELECT DISTINCT tenant_id FROM broker.customer WHERE id = ANY (ids) ORDER BY tenant_id) t;`,
  move: `IF cardinality(moved) = 0 THEN RETURN NULL; END IF;
      PERFORM pg_advisory_xact_lock(broker.search_hierarchy_lock(t.tenant_id))
         FROM (SELECT DISTINCT tenant_id FROM broker.broker WHERE id = ANY (moved) ORDER BY tenant_id) t;`,
};

export class CustomerSearchTenantLock1763700000014 implements MigrationInterface {
  name = 'CustomerSearchTenantLock1763700000014';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE FUNCTION broker.search_hierarchy_lock(tenant bigint) RETURNS bigint
      LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
        SELECT hashtextextended('broker.customer_search hierarchy of tenant ' || tenant, 0)
      $$`);
    await createRefresh(db, TENANT_HIERARCHY_LOCKING);
    await createMoveFunction(db, TENANT_HIERARCHY_LOCKING);
  }

  async down(db: QueryRunner): Promise<void> {
    await createRefresh(db, DATABASE_HIERARCHY_LOCKING);
    await createMoveFunction(db, DATABASE_HIERARCHY_LOCKING);
    await db.query('DROP FUNCTION broker.search_hierarchy_lock(bigint)');
  }
}
