import { randomBytes } from 'node:crypto';
import type { Client } from 'pg';
import { ApiKeyCipher } from '@broker/auth';

/** The fixture's tenant, its brokers by number, and the key the service decrypts API keys with. */
export interface Fixture {
  tenantId: string;
  brokers: Record<string, string>;
  encryptionKey: Buffer;
}

/** An API client of area C: its id and its key in clear text. */
export interface ApiClientKey {
  apiId: string;
  apiKey: string;
}

/**
 * Like the broker service's test fixture, on a database with `insertBrokerFixture`: an API client of V1000
 * (key stored encrypted with a fresh key) and, when `employee` is given, an employee of V1000 with that code.
 */
export async function insertApiClient(
  db: Client,
  apiClient: ApiClientKey,
  employee?: string,
): Promise<Fixture> {
  const { rows } = await db.query<{ id: string; tenant_id: string; broker_number: string }>(
    'SELECT id::text, tenant_id::text, broker_number FROM broker.broker',
  );
  const brokers = Object.fromEntries(rows.map((row) => [row.broker_number, row.id]));
  const tenantId = rows[0]?.tenant_id ?? '';
  const encryptionKey = randomBytes(32);
  if (employee !== undefined)
    await db.query(
      `INSERT INTO broker.employee (tenant_id, broker_id, employee_code, first_name, last_name)
       VALUES ($1, $2, $3, 'Bench', 'Mark')`,
      [tenantId, brokers.V1000, employee],
    );
  await db.query(
    `INSERT INTO broker.api_client (tenant_id, broker_id, api_id, api_key_ciphertext) VALUES ($1, $2, $3, $4)`,
    [tenantId, brokers.V1000, apiClient.apiId, new ApiKeyCipher(encryptionKey).encrypt(apiClient.apiKey)],
  );
  return { tenantId, brokers, encryptionKey };
}

/** The value at `share` (0.5 for the median) of ascending `sorted`. */
export const percentile = (sorted: number[], share: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? 0;
