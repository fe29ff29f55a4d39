import type { EntityManager } from 'typeorm';
import { DomainError } from '@broker/errors';
import { visibleBrokersCte } from '@broker/inventory';
import type { EmployeeScope } from './employee-scope.js';

/** The one answer for a customer that does not exist or that the scope may not see. */
export const customerNotFound = (customerId: string) =>
  DomainError.notFound(`Customer ${customerId} does not exist`);

export interface VisibleCustomer {
  id: string;
  brokerId: string;
}

/**
 * Asserts that the scope may see the customer (its broker is the employee's broker or below it) and returns it,
 * locked for update when `lock` is set; any other id is a 404 exactly like one that does not exist.
 */
export async function assertVisibleCustomer(
  db: EntityManager,
  scope: EmployeeScope,
  customerId: string,
  lock = false,
): Promise<VisibleCustomer> {
  const [row] = await db.query<VisibleCustomer[]>(
    `WITH RECURSIVE ${visibleBrokersCte(1, 2)}
     SELECT c.id::text, c.broker_id::text AS "brokerId" FROM broker.customer c JOIN visible_broker v ON v.id = c.broker_id
      WHERE c.tenant_id = $1 AND c.id = $3 ${lock ? 'FOR UPDATE OF c' : ''}`,
    [scope.tenantId, scope.brokerId, customerId],
  );
  if (!row) throw customerNotFound(customerId);
  return row;
}

/** Links of a customer's sub-resources, as absolute paths of this service. */
export function customerPath(scope: EmployeeScope, customerId: string, ...rest: string[]): string {
  return [`${scope.basePath}/kunden/${customerId}`, ...rest].join('/');
}
