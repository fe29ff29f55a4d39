import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type ApiClientCredentials, type ApiClientDirectory, ApiKeyCipher } from '@broker/auth';
import { type PreparedStatement, runPrepared } from '@broker/db';

type ClientRow = Omit<ApiClientCredentials, 'apiKey' | 'previousKey' | 'employee'> & {
  ciphertext: string;
  previousCiphertext: string | null;
  previousValidUntil: Date | null;
  employeeId: string | null;
  employeeBlocked: boolean | null;
};

/**
 * The client with its broker's state and, when $3 is not null, its broker's employee of that code: read fresh
 * for every request (blocking takes effect at once).
 */
const FIND_CLIENT: PreparedStatement = {
  name: 'svc-api-client-find',
  text: `SELECT c.id::text AS "apiClientId", t.id::text AS "tenantId", b.id::text AS "brokerId",
                b.broker_number AS "brokerNumber", c.api_key_ciphertext AS ciphertext,
                c.previous_key_ciphertext AS "previousCiphertext", c.previous_key_valid_until AS "previousValidUntil",
                c.blocked AS "clientBlocked", b.blocked AS "brokerBlocked",
                e.id::text AS "employeeId", e.blocked AS "employeeBlocked"
           FROM broker.api_client c
           JOIN broker.tenant t ON t.id = c.tenant_id
           JOIN broker.broker b ON b.tenant_id = c.tenant_id AND b.id = c.broker_id
           LEFT JOIN broker.employee e
             ON e.tenant_id = c.tenant_id AND e.broker_id = c.broker_id AND e.employee_code = $3
          WHERE t.code = $1 AND c.api_id = $2`,
};

/** API clients from the inventory; the key is decrypted only here, in memory, and never logged. */
@Injectable()
export class SqlApiClientDirectory implements ApiClientDirectory {
  constructor(
    private readonly db: DataSource,
    private readonly cipher: ApiKeyCipher,
  ) {}

  async find(
    tenantCode: string,
    apiId: string,
    employeeCode?: string,
  ): Promise<ApiClientCredentials | undefined> {
    const [row] = await runPrepared<ClientRow>(this.db, FIND_CLIENT, [
      tenantCode,
      apiId,
      employeeCode ?? null,
    ]);
    if (!row) return undefined;
    const { ciphertext, previousCiphertext, previousValidUntil, employeeId, employeeBlocked, ...client } =
      row;
    return {
      ...client,
      apiKey: this.cipher.decrypt(ciphertext),
      ...(previousCiphertext !== null &&
        previousValidUntil !== null && {
          previousKey: { apiKey: this.cipher.decrypt(previousCiphertext), validUntil: previousValidUntil },
        }),
      ...(employeeCode !== undefined && {
        employee: { code: employeeCode, id: employeeId, blocked: employeeBlocked ?? false },
      }),
    };
  }
}
