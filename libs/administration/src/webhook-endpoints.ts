import type { DataSource, EntityManager } from 'typeorm';
import type {
  OperatorWebhookEndpointDetail,
  OperatorWebhookEndpointPage,
  OperatorWebhookEndpointView,
  RedeliveryResult,
} from '@broker/contracts';
import { inTransaction, recordAuditEvent, type WriteContext } from './audit-trail.js';
import { brokerIdOf } from './broker-lookup.js';
import { conflict, notFound } from './errors.js';
import { pageOf, type PageRequest } from './paging.js';
import { isUuid, SqlFilter, utc } from './sql.js';
import { tenantIdOf } from './tenants.js';

export interface WebhookEndpointFilter {
  broker?: string;
  state?: 'failing' | 'disabled';
}

const ENDPOINT_VIEW = `e.id::text, b.broker_number AS broker, e.url, e.event_types,
  ${utc('e.failing_since')} AS failing_since, ${utc('e.disabled_at')} AS disabled_at, e.disabled_reason,
  (SELECT count(*)::int FROM "import".webhook_delivery d WHERE d.endpoint_id = e.id AND d.state = 'pending')
    AS pending_deliveries,
  (SELECT count(*)::int FROM "import".webhook_delivery d WHERE d.endpoint_id = e.id AND d.state = 'abandoned')
    AS abandoned_deliveries,
  ${utc('e.created_at')} AS created_at`;
const ENDPOINT_FROM = `"import".webhook_endpoint e
  JOIN broker.broker b ON b.tenant_id = e.tenant_id AND b.id = e.broker_id`;

/** A path segment that may be a credential (a token in the path, as some receivers take it). */
const SECRET_LIKE_SEGMENT = /^[\w.~-]{16,}$/;

/**
 * The receiver's address as operators see it: its query left out (a receiver may put its own secret there, with or
 * without a value) and path segments that look like a token hidden.
 */
function withoutSecrets(view: OperatorWebhookEndpointView): OperatorWebhookEndpointView {
  const url = new URL(view.url);
  const path = url.pathname
    .split('/')
    .map((segment) => (SECRET_LIKE_SEGMENT.test(segment) ? '…' : segment))
    .join('/');
  return { ...view, url: `${url.origin}${path}${url.search ? '?…' : ''}` };
}

/**
 * The webhook endpoints of a tenant's brokers (import events), as its operators watch and mend them: an endpoint
 * disabled after failing too long is enabled again, and abandoned deliveries are put back in line; the import
 * worker's dispatcher then delivers them, in order per process. Both writes are audited.
 */
export class WebhookEndpointOperations {
  constructor(private readonly db: DataSource) {}

  async list(
    tenantCode: string,
    filter: WebhookEndpointFilter,
    page: PageRequest,
  ): Promise<OperatorWebhookEndpointPage> {
    const db = this.db.manager;
    const tenantId = await tenantIdOf(db, tenantCode);
    const where = new SqlFilter().where('e.tenant_id = ?', tenantId);
    if (filter.broker) where.where('e.broker_id = ?', (await brokerIdOf(db, tenantId, filter.broker)) ?? '0');
    if (filter.state === 'failing') where.where('e.failing_since IS NOT NULL');
    if (filter.state === 'disabled') where.where('e.disabled_at IS NOT NULL');
    const found = await pageOf<OperatorWebhookEndpointView>(
      db,
      {
        select: ENDPOINT_VIEW,
        from: `${ENDPOINT_FROM} WHERE ${where.clause}`,
        orderBy: 'e.failing_since NULLS LAST, e.created_at, e.id',
        parameters: where.parameters,
      },
      page,
    );
    return { ...found, items: found.items.map(withoutSecrets) };
  }

  async get(tenantCode: string, endpointId: string): Promise<OperatorWebhookEndpointDetail> {
    const db = this.db.manager;
    const endpoint = await this.endpoint(db, await tenantIdOf(db, tenantCode), endpointId);
    const attempts = await db.query<OperatorWebhookEndpointDetail['attempts']>(
      `SELECT delivery_id::text, event_type, ${utc('attempted_at')} AS attempted_at, status_code, error, duration_ms
         FROM "import".webhook_attempt WHERE endpoint_id = $1 ORDER BY id DESC LIMIT 50`,
      [endpointId],
    );
    const undelivered = await db.query<OperatorWebhookEndpointDetail['undelivered']>(
      `SELECT id::text, process_id::text, event_type, state, attempts, ${utc('created_at')} AS created_at
         FROM "import".webhook_delivery WHERE endpoint_id = $1 AND state <> 'delivered' ORDER BY id LIMIT 50`,
      [endpointId],
    );
    return { ...endpoint, attempts, undelivered };
  }

  /** enableWebhookEndpoint: a disabled endpoint takes deliveries again, its failing time forgotten. */
  async enable(
    context: WriteContext,
    tenantCode: string,
    endpointId: string,
  ): Promise<OperatorWebhookEndpointDetail> {
    await inTransaction(this.db, context, async (tx) => {
      const tenantId = await tenantIdOf(tx, tenantCode);
      const endpoint = await this.endpoint(tx, tenantId, endpointId, 'FOR UPDATE OF e');
      if (endpoint.disabled_at === null && endpoint.failing_since === null)
        throw conflict('The endpoint is enabled and healthy already');
      await tx.query(
        `UPDATE "import".webhook_endpoint SET disabled_at = NULL, disabled_reason = NULL, failing_since = NULL
          WHERE id = $1`,
        [endpointId],
      );
      await recordAuditEvent(tx, context.actor, {
        tenantId,
        action: context.operation ?? 'enableWebhookEndpoint',
        target: `webhook-endpoints/${endpointId}`,
        changes: { disabled: false },
      });
    });
    return this.get(tenantCode, endpointId);
  }

  /**
   * redeliverWebhookDeliveries: abandoned deliveries of the endpoint (one, or all) pending again with fresh attempts.
   * An endpoint still disabled takes none: 409 (enable it first).
   */
  async redeliver(
    context: WriteContext,
    tenantCode: string,
    endpointId: string,
    deliveryId: string | undefined,
  ): Promise<RedeliveryResult> {
    return inTransaction(this.db, context, async (tx) => {
      const tenantId = await tenantIdOf(tx, tenantCode);
      const endpoint = await this.endpoint(tx, tenantId, endpointId, 'FOR UPDATE OF e');
      if (endpoint.disabled_at !== null)
        throw conflict('The endpoint is disabled: enable it before redelivering');
      const redelivered = await tx.query<{ id: string }[]>(
        `WITH redelivered AS (
           UPDATE "import".webhook_delivery SET state = 'pending', attempts = 0
            WHERE endpoint_id = $1 AND state = 'abandoned' AND ($2::bigint IS NULL OR id = $2::bigint)
            RETURNING id)
         SELECT id::text FROM redelivered`,
        [endpointId, deliveryId ?? null],
      );
      if (deliveryId && redelivered.length === 0)
        throw notFound(`The endpoint has no abandoned delivery ${deliveryId}`);
      await recordAuditEvent(tx, context.actor, {
        tenantId,
        action: context.operation ?? 'redeliverWebhookDeliveries',
        target: `webhook-endpoints/${endpointId}`,
        changes: { redelivered: redelivered.map((row) => row.id) },
      });
      return { redelivered: redelivered.length };
    });
  }

  private async endpoint(
    db: EntityManager,
    tenantId: string,
    endpointId: string,
    lock = '',
  ): Promise<OperatorWebhookEndpointView> {
    const [row] = isUuid(endpointId)
      ? await db.query<OperatorWebhookEndpointView[]>(
          `SELECT ${ENDPOINT_VIEW} FROM ${ENDPOINT_FROM} WHERE e.tenant_id = $1 AND e.id = $2::uuid ${lock}`,
          [tenantId, endpointId],
        )
      : [];
    if (!row) throw notFound(`Webhook endpoint ${endpointId} does not exist`);
    return withoutSecrets(row);
  }
}
