import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { DataSource, EntityManager } from 'typeorm';
import type { ApiClientCreated, ApiClientPage, ApiClientView, ApiKeyRotated } from '@broker/contracts';
import type { ApiKeyCipher } from '@broker/auth';
import { inTransaction, recordAuditEvent, type WriteContext } from './audit-trail.js';
import { existingBrokerId } from './broker-lookup.js';
import { conflict, notFound } from './errors.js';
import { pageOf, type PageRequest } from './paging.js';
import { utc, writtenRows } from './sql.js';
import { tenantIdOf } from './tenants.js';

/** How long the key a rotation replaced keeps working, so clients can switch without an outage. */
export const PREVIOUS_KEY_VALIDITY_HOURS = 24;
/** Random bytes of a new API key (256 bits), written as base64url. */
const KEY_BYTES = 32;
/** A key given by the platform's own tooling (the demo seed, tests) instead of a random one: at least this long. */
const PRESET_KEY_MIN_LENGTH = 8;
const OTP_ISSUER = 'Broker Platform';

const API_CLIENT_VIEW = `c.api_id, b.broker_number AS broker, c.blocked, ${utc('c.key_created_at')} AS key_created_at,
  CASE WHEN c.previous_key_valid_until > now() THEN ${utc('c.previous_key_valid_until')} END AS previous_key_valid_until,
  ${utc('c.created_at')} AS created_at, ${utc('c.updated_at')} AS updated_at`;
const API_CLIENT_FROM =
  'broker.api_client c JOIN broker.broker b ON b.tenant_id = c.tenant_id AND b.id = c.broker_id';

/**
 * The `otpauth://` URI of area C's OTP form for authenticator apps and OTP libraries: TOTP (RFC 6238) with SHA-1,
 * 8 digits and 30 s steps, the API key's UTF-8 bytes as the secret (as HeaderGroupVerifier checks it).
 */
export function otpUri(tenantCode: string, apiId: string, apiKey: string): string {
  return new TOTP({
    issuer: OTP_ISSUER,
    label: `${tenantCode}/${apiId}`,
    algorithm: 'SHA1',
    digits: 8,
    period: 30,
    secret: Secret.fromUTF8(apiKey),
  }).toString();
}

/** A new API key: 256 random bits. */
function newApiKey(): string {
  return randomBytes(KEY_BYTES).toString('base64url');
}

/** The API clients of a broker (`brokerId`) or of the whole tenant, by API id. */
export function listApiClientsOf(
  db: EntityManager,
  tenantId: string,
  filter: { brokerId?: string },
  page: PageRequest,
): Promise<ApiClientPage> {
  const byBroker = filter.brokerId !== undefined;
  return pageOf<ApiClientView>(
    db,
    {
      select: API_CLIENT_VIEW,
      from: `${API_CLIENT_FROM} WHERE c.tenant_id = $1${byBroker ? ' AND c.broker_id = $2' : ''}`,
      orderBy: 'c.api_id',
      parameters: byBroker ? [tenantId, filter.brokerId] : [tenantId],
    },
    page,
  );
}

/**
 * API clients of area C: the one place their keys are made. A key (and its OTP URI) is shown once, in the answer that
 * made it; it is stored encrypted (ApiKeyCipher) and never written to the audit trail or a log. Area C reads a
 * client for every request, so a new key, a block or a deletion takes effect at once.
 */
export class ApiClientAdministration {
  constructor(
    private readonly db: DataSource,
    private readonly cipher: ApiKeyCipher,
  ) {}

  /**
   * `presetKey`: the platform's own tooling (the demo seed, tests) may give the key, so its documented development
   * credentials stay as they are; the administration API never takes one.
   */
  async create(
    context: WriteContext,
    tenantCode: string,
    brokerNumber: string,
    request: { apiId?: string },
    presetKey?: string,
  ): Promise<ApiClientCreated> {
    if (presetKey !== undefined && presetKey.length < PRESET_KEY_MIN_LENGTH)
      throw new Error(`A preset API key must have at least ${PRESET_KEY_MIN_LENGTH} characters`);
    const apiKey = presetKey ?? newApiKey();
    const apiId = request.apiId ?? `${brokerNumber.toLowerCase()}-${randomBytes(4).toString('hex')}`;
    return inTransaction(this.db, context, async (tx) => {
      const tenantId = await tenantIdOf(tx, tenantCode);
      const brokerId = await existingBrokerId(tx, tenantId, brokerNumber);
      const [row] = await tx.query<{ id: string }[]>(
        `INSERT INTO broker.api_client (tenant_id, broker_id, api_id, api_key_ciphertext) VALUES ($1, $2, $3, $4)
         ON CONFLICT (tenant_id, api_id) DO NOTHING RETURNING id::text`,
        [tenantId, brokerId, apiId, this.cipher.encrypt(apiKey)],
      );
      if (!row) throw conflict(`API client ${apiId} already exists`);
      await recordAuditEvent(tx, context.actor, {
        tenantId,
        action: context.operation ?? 'createApiClient',
        target: `api-clients/${apiId}`,
        changes: { api_id: apiId, broker: brokerNumber, key_created: true },
      });
      return {
        api_id: apiId,
        broker: brokerNumber,
        api_key: apiKey,
        otp_uri: otpUri(tenantCode, apiId, apiKey),
      };
    });
  }

  /**
   * A new key; the one it replaces keeps working for PREVIOUS_KEY_VALIDITY_HOURS (a key replaced before, still in
   * its overlap, stops at once).
   */
  async rotateKey(context: WriteContext, tenantCode: string, apiId: string): Promise<ApiKeyRotated> {
    const apiKey = newApiKey();
    return inTransaction(this.db, context, async (tx) => {
      const tenantId = await tenantIdOf(tx, tenantCode);
      const [row] = await writtenRows<{ valid_until: string }>(
        tx,
        `UPDATE broker.api_client
            SET previous_key_ciphertext = api_key_ciphertext,
                previous_key_valid_until = now() + make_interval(hours => $4),
                api_key_ciphertext = $3, key_created_at = now()
          WHERE tenant_id = $1 AND api_id = $2
          RETURNING ${utc('previous_key_valid_until')} AS valid_until`,
        [tenantId, apiId, this.cipher.encrypt(apiKey), PREVIOUS_KEY_VALIDITY_HOURS],
      );
      if (!row) throw notFound(`API client ${apiId} does not exist`);
      await recordAuditEvent(tx, context.actor, {
        tenantId,
        action: context.operation ?? 'rotateApiClientKey',
        target: `api-clients/${apiId}`,
        changes: { key_created: true, previous_key_valid_until: row.valid_until },
      });
      return {
        api_key: apiKey,
        otp_uri: otpUri(tenantCode, apiId, apiKey),
        previous_key_valid_until: row.valid_until,
      };
    });
  }

  async update(
    context: WriteContext,
    tenantCode: string,
    apiId: string,
    changes: { blocked: boolean },
  ): Promise<ApiClientView> {
    return inTransaction(this.db, context, async (tx) => {
      const tenantId = await tenantIdOf(tx, tenantCode);
      const [current] = await tx.query<{ blocked: boolean }[]>(
        'SELECT blocked FROM broker.api_client WHERE tenant_id = $1 AND api_id = $2 FOR UPDATE',
        [tenantId, apiId],
      );
      if (!current) throw notFound(`API client ${apiId} does not exist`);
      if (current.blocked !== changes.blocked) {
        await tx.query('UPDATE broker.api_client SET blocked = $3 WHERE tenant_id = $1 AND api_id = $2', [
          tenantId,
          apiId,
          changes.blocked,
        ]);
        await recordAuditEvent(tx, context.actor, {
          tenantId,
          action: context.operation ?? 'updateApiClient',
          target: `api-clients/${apiId}`,
          changes: { blocked: changes.blocked },
        });
      }
      return this.view(tx, tenantId, apiId);
    });
  }

  /** Deleted for good: area C then answers the API id with 404, as for one that never existed. */
  async delete(context: WriteContext, tenantCode: string, apiId: string): Promise<void> {
    await inTransaction(this.db, context, async (tx) => {
      const tenantId = await tenantIdOf(tx, tenantCode);
      const [deleted] = await writtenRows<{ broker: string }>(
        tx,
        `DELETE FROM broker.api_client c USING broker.broker b
          WHERE c.tenant_id = $1 AND c.api_id = $2 AND b.tenant_id = c.tenant_id AND b.id = c.broker_id
          RETURNING b.broker_number AS broker`,
        [tenantId, apiId],
      );
      if (!deleted) throw notFound(`API client ${apiId} does not exist`);
      await recordAuditEvent(tx, context.actor, {
        tenantId,
        action: context.operation ?? 'deleteApiClient',
        target: `api-clients/${apiId}`,
        changes: { deleted: true, broker: deleted.broker },
      });
    });
  }

  async get(tenantCode: string, apiId: string): Promise<ApiClientView> {
    const db = this.db.manager;
    return this.view(db, await tenantIdOf(db, tenantCode), apiId);
  }

  /** The clients of the tenant, or of one of its brokers. */
  async list(tenantCode: string, filter: { broker?: string }, page: PageRequest): Promise<ApiClientPage> {
    const db = this.db.manager;
    const tenantId = await tenantIdOf(db, tenantCode);
    const brokerId =
      filter.broker === undefined ? undefined : await existingBrokerId(db, tenantId, filter.broker);
    return listApiClientsOf(db, tenantId, { brokerId }, page);
  }

  /** Whether the client holds exactly `apiKey` as its current key (the demo seed's check before it writes). */
  async holdsKey(tenantCode: string, apiId: string, apiKey: string): Promise<boolean> {
    const [row] = await this.db.query<{ ciphertext: string }[]>(
      `SELECT c.api_key_ciphertext AS ciphertext FROM broker.api_client c JOIN broker.tenant t ON t.id = c.tenant_id
        WHERE t.code = $1 AND c.api_id = $2`,
      [tenantCode, apiId],
    );
    return row !== undefined && this.cipher.holds(row.ciphertext, apiKey);
  }

  private async view(db: EntityManager, tenantId: string, apiId: string): Promise<ApiClientView> {
    const [view] = await db.query<ApiClientView[]>(
      `SELECT ${API_CLIENT_VIEW} FROM ${API_CLIENT_FROM} WHERE c.tenant_id = $1 AND c.api_id = $2`,
      [tenantId, apiId],
    );
    if (!view) throw notFound(`API client ${apiId} does not exist`);
    return view;
  }
}
