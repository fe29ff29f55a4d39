import type { EntityManager } from 'typeorm';

/**
 * SQL for "this broker and every broker below it": a recursive CTE named `visible_broker(id)`.
 * `$tenant` and `$root` are the positions of the tenant id and the root broker id parameters.
 * Visibility is decided in the query, never by filtering results afterwards.
 */
export function visibleBrokersCte(tenantParam: number, rootParam: number): string {
  return `visible_broker(id) AS (
    SELECT id FROM broker.broker WHERE tenant_id = $${tenantParam} AND id = $${rootParam}
    UNION ALL
    SELECT child.id FROM broker.broker child JOIN visible_broker parent ON child.parent_id = parent.id
     WHERE child.tenant_id = $${tenantParam}
  )`;
}

/**
 * Takes the tenant's broker tree for the transaction: `exclusive` for anything that moves brokers (two concurrent
 * moves cannot build a cycle between them), shared for what must not see the tree change meanwhile (an edit within
 * a caller's tree, a broker created under a parent). Every writer of the hierarchy (area C, the administration, its
 * master-data files) takes it.
 */
export async function lockBrokerHierarchy(
  db: EntityManager,
  tenantId: string,
  mode: 'shared' | 'exclusive',
): Promise<void> {
  const lock = mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
  await db.query(`SELECT ${lock}(hashtextextended('broker.broker hierarchy ' || $1, 0))`, [tenantId]);
}

/** Whether `brokerId` is `rootId` or below it: placing `rootId` under `brokerId` would make a cycle. */
export async function isAtOrBelow(
  db: EntityManager,
  tenantId: string,
  rootId: string,
  brokerId: string,
): Promise<boolean> {
  const [row] = await db.query<{ found: boolean }[]>(
    `WITH RECURSIVE ${visibleBrokersCte(1, 2)}
     SELECT EXISTS (SELECT 1 FROM visible_broker WHERE id = $3) AS found`,
    [tenantId, rootId, brokerId],
  );
  return row.found;
}
