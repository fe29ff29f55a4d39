import { Client } from 'pg';

/**
 * A small broker hierarchy for tests, in tenant `demo`: V1000 > V1001 > V1003, V1000 > V1002, a blocked V1900
 * and an unrelated V2000; insurers 9999 and 5512. The same shape as the development seed, without customers.
 */
export async function insertBrokerFixture(databaseUrl: string): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`
      WITH tenant AS (INSERT INTO broker.tenant (code, name) VALUES ('demo', 'Demo') RETURNING id),
      root AS (
        INSERT INTO broker.broker (tenant_id, broker_number, name, blocked)
        SELECT id, number, name, blocked FROM tenant,
          (VALUES ('V1000', 'Muster Makler GmbH', false), ('V1900', 'Gesperrte Makler AG', true),
                  ('V2000', 'Andere Makler KG', false)) AS b(number, name, blocked)
        RETURNING id, tenant_id, broker_number
      ),
      level1 AS (
        INSERT INTO broker.broker (tenant_id, broker_number, name, parent_id)
        SELECT tenant_id, number, name, root.id FROM root,
          (VALUES ('V1001', 'Nord Versicherungsmakler'), ('V1002', 'Süd Finanzberatung')) AS b(number, name)
         WHERE root.broker_number = 'V1000'
        RETURNING id, tenant_id, broker_number
      ),
      level2 AS (
        INSERT INTO broker.broker (tenant_id, broker_number, name, parent_id)
        SELECT tenant_id, 'V1003', 'Hafen Assekuranz', id FROM level1 WHERE broker_number = 'V1001'
        RETURNING id
      )
      INSERT INTO broker.company (tenant_id, vu_number, name)
      SELECT id, vu, name FROM tenant,
        (VALUES ('9999', 'XXX Versicherung AG'), ('5512', 'HDI-Gerling Firmen und Privat')) AS c(vu, name)`);
  } finally {
    await client.end();
  }
}
