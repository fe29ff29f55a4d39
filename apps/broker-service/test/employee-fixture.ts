import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { svcDigest, svcOtp } from '@broker/auth';
import { createApiClients, createEmployees, withAdministration } from '@broker/fixtures';

/** An API client of the employee fixture: its id and key in clear text, for signing test requests. */
export interface FixtureApiClient {
  apiId: string;
  apiKey: string;
}

/** The API clients insertEmployeeFixture creates (the keys are stored encrypted). */
export const FIXTURE_API_CLIENTS = {
  /** V1000: sees V1000, V1001, V1002, V1003. */
  main: { apiId: 'main-api', apiKey: 'main-api-key-0123456789' },
  /** V2000, unrelated to V1000. */
  other: { apiId: 'other-api', apiKey: 'other-api-key-0123456789' },
  /** V1900, a blocked broker. */
  blockedBroker: { apiId: 'blocked-broker-api', apiKey: 'blocked-broker-key' },
  /** V1000, but the client itself is blocked. */
  blockedClient: { apiId: 'blocked-client-api', apiKey: 'blocked-client-key' },
} satisfies Record<string, FixtureApiClient>;

/** Employee codes ({ma}) of the fixture: 01_01 of V1000, 02_01 of V2000, 01_99 of V1000 (blocked). */
export const FIXTURE_EMPLOYEES = { main: '01_01', other: '02_01', blocked: '01_99' };

/**
 * On top of insertBrokerFixture: employees and API clients (keys encrypted with `encryptionKey`), made through the
 * administration's use cases, and one customer each of V1000 ("Anna Aktuell"), V1003 ("Bernd Unten") and V2000
 * ("Clara Fremd"). Returns the customers' ids.
 */
export async function insertEmployeeFixture(
  databaseUrl: string,
  encryptionKey: Buffer,
): Promise<{ v1000Customer: string; v1003Customer: string; v2000Customer: string }> {
  await withAdministration(
    databaseUrl,
    async (admin) => {
      await createEmployees(admin, 'demo', [
        { broker: 'V1000', number: FIXTURE_EMPLOYEES.main, name: 'Erika Test' },
        { broker: 'V2000', number: FIXTURE_EMPLOYEES.other, name: 'Max Test' },
        { broker: 'V1000', number: FIXTURE_EMPLOYEES.blocked, name: 'Gesperrt Test', disabled: true },
      ]);
      await createApiClients(admin, 'demo', [
        { broker: 'V1000', ...FIXTURE_API_CLIENTS.main },
        { broker: 'V2000', ...FIXTURE_API_CLIENTS.other },
        { broker: 'V1900', ...FIXTURE_API_CLIENTS.blockedBroker },
        { broker: 'V1000', ...FIXTURE_API_CLIENTS.blockedClient, blocked: true },
      ]);
    },
    encryptionKey,
  );
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const broker = async (number: string) =>
      (
        await client.query<{ id: string; tenant_id: string }>(
          'SELECT id, tenant_id FROM broker.broker WHERE broker_number = $1',
          [number],
        )
      ).rows[0];
    const v1000 = await broker('V1000');
    const v1003 = await broker('V1003');
    const v2000 = await broker('V2000');
    const tenantId = v1000.tenant_id;
    const customer = async (brokerId: string, firstName: string, lastName: string) =>
      (
        await client.query<{ id: string }>(
          `INSERT INTO broker.customer (tenant_id, broker_id, person_type, salutation, first_name, last_name)
         VALUES ($1, $2, 'natuerlich', 'frau', $3, $4) RETURNING id::text`,
          [tenantId, brokerId, firstName, lastName],
        )
      ).rows[0].id;
    return {
      v1000Customer: await customer(v1000.id, 'Anna', 'Aktuell'),
      v1003Customer: await customer(v1003.id, 'Bernd', 'Unten'),
      v2000Customer: await customer(v2000.id, 'Clara', 'Fremd'),
    };
  } finally {
    await client.end();
  }
}

/** The area C header group with a fresh nonce and the current time (ISO 8601 with offset). */
export function svcDigestHeaders(apiClient: FixtureApiClient, time = new Date()): Record<string, string> {
  const nonce = randomBytes(20).toString('hex');
  const timestamp = time.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    'X-Svc-Api-Id': apiClient.apiId,
    'X-Svc-Timestamp': timestamp,
    'X-Svc-Nonce': nonce,
    'X-Svc-Digest': svcDigest(nonce, timestamp, apiClient.apiKey),
  };
}

/** The area C header group in its one-time-password form. */
export function svcOtpHeaders(apiClient: FixtureApiClient, time = Date.now()): Record<string, string> {
  return { 'X-Svc-Api-Id': apiClient.apiId, 'X-Svc-Otp': svcOtp(apiClient.apiKey, time) };
}
