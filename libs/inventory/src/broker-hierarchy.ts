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
