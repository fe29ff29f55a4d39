import type { EntityManager } from 'typeorm';
import { DomainError } from '@broker/errors';
import { visibleBrokersCte } from '@broker/inventory';
import type { EmployeeScope } from './employee-scope.js';

/**
 * The id of a customer the scope may see (its broker is the employee's broker or below it), locked for update
 * when `lock` is set; any other id is a 404 exactly like one that does not exist.
 */
export async function visibleCustomerId(
  db: EntityManager,
  scope: EmployeeScope,
  customerId: string,
  lock = false,
): Promise<string> {
  const [row] = await db.query<{ id: string }[]>(
    `WITH RECURSIVE ${visibleBrokersCte(1, 2)}
     SELECT c.id::text FROM broker.customer c JOIN visible_broker v ON v.id = c.broker_id
      WHERE c.tenant_id = $1 AND c.id = $3 ${lock ? 'FOR UPDATE OF c' : ''}`,
    [scope.tenantId, scope.brokerId, customerId],
  );
  if (!row) throw DomainError.notFound(`Customer ${customerId} does not exist`);
  return row.id;
}

/** Links of a customer's sub-resources, as absolute paths of this service. */
export function customerPath(scope: EmployeeScope, customerId: string, ...rest: string[]): string {
  return [`${scope.basePath}/kunden/${customerId}`, ...rest].join('/');
}
