import type { EntityManager } from 'typeorm';
import { notFound } from './errors.js';

/** The id of broker `number` of the tenant; undefined when there is none. */
export async function brokerIdOf(
  db: EntityManager,
  tenantId: string,
  number: string,
): Promise<string | undefined> {
  const [row] = await db.query<{ id: string }[]>(
    'SELECT id::text FROM broker.broker WHERE tenant_id = $1 AND broker_number = $2',
    [tenantId, number],
  );
  return row?.id;
}

/** The id of broker `number`; 404 when the tenant has none of that number. */
export async function existingBrokerId(db: EntityManager, tenantId: string, number: string): Promise<string> {
  const id = await brokerIdOf(db, tenantId, number);
  if (id === undefined) throw notFound(`Broker ${number} does not exist`);
  return id;
}
