import type { EntityManager } from 'typeorm';
import { DomainError } from '@broker/errors';
import { visibleBrokersCte } from '@broker/inventory';

/** The one answer for a broker number that does not exist or that the caller may not see. */
export const brokerNotFound = (brokerNumber: string) =>
  DomainError.notFound(`Vermittler ${brokerNumber} does not exist`);

/** Whose tree is visible: the API client's broker in its tenant (an SvcPrincipal or an EmployeeScope). */
export interface BrokerTreeRoot {
  tenantId: string;
  brokerId: string;
}

/**
 * The id of broker `brokerNumber` if it is the root or below it (`belowOnly`: strictly below), else
 * undefined. `lock` takes the row lock for an update.
 */
export async function visibleBrokerId(
  db: EntityManager,
  caller: BrokerTreeRoot,
  brokerNumber: string,
  options: { belowOnly?: boolean; lock?: boolean } = {},
): Promise<string | undefined> {
  const [row] = await db.query<{ id: string }[]>(
    `WITH RECURSIVE ${visibleBrokersCte(1, 2)}
     SELECT b.id::text FROM broker.broker b JOIN visible_broker v ON v.id = b.id
      WHERE b.tenant_id = $1 AND b.broker_number = $3 ${options.belowOnly ? 'AND b.id <> $2' : ''}
      ${options.lock ? 'FOR UPDATE OF b' : ''}`,
    [caller.tenantId, caller.brokerId, brokerNumber],
  );
  return row?.id;
}
