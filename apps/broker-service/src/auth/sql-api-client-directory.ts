import { Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';
import { type ApiClientCredentials, type ApiClientDirectory, ApiKeyCipher } from '@broker/auth';

type ClientRow = Omit<ApiClientCredentials, 'apiKey'> & { ciphertext: string };

/**
 * The client with its broker's state, read fresh for every request (blocking takes effect at once). A named
 * statement: every request runs it, so each pooled connection parses and plans it once.
 */
const FIND_CLIENT = {
  name: 'svc-api-client-find',
  text: `SELECT c.id::text AS "apiClientId", t.id::text AS "tenantId", b.id::text AS "brokerId",
                b.broker_number AS "brokerNumber", c.api_key_ciphertext AS ciphertext,
                c.blocked AS "clientBlocked", b.blocked AS "brokerBlocked"
           FROM broker.api_client c
           JOIN broker.tenant t ON t.id = c.tenant_id
           JOIN broker.broker b ON b.tenant_id = c.tenant_id AND b.id = c.broker_id
          WHERE t.code = $1 AND c.api_id = $2`,
};

/** API clients from the inventory; the key is decrypted only here, in memory, and never logged. */
@Injectable()
export class SqlApiClientDirectory implements ApiClientDirectory {
  constructor(
    private readonly db: DataSource,
    private readonly cipher: ApiKeyCipher,
  ) {}

  async find(tenantCode: string, apiId: string): Promise<ApiClientCredentials | undefined> {
    // The driver's pg pool: TypeORM's query() takes no statement name.
    const pool = (this.db.driver as PostgresDriver).master as Pool;
    const {
      rows: [row],
    } = await pool.query<ClientRow>({ ...FIND_CLIENT, values: [tenantCode, apiId] });
    if (!row) return undefined;
    const { ciphertext, ...client } = row;
    return { ...client, apiKey: this.cipher.decrypt(ciphertext) };
  }
}
