import type { DataSource, EntityManager } from 'typeorm';
import type { TenantPage, TenantView } from '@broker/contracts';
import { inTransaction, recordAuditEvent, type WriteContext } from './audit-trail.js';
import { conflict, notFound } from './errors.js';
import { pageOf, type PageRequest } from './paging.js';
import { utc } from './sql.js';

const TENANT_VIEW = `t.code AS id, t.name, ${utc('t.created_at')} AS created_at, ${utc('t.updated_at')} AS updated_at`;

/** The id of the tenant with this code; 404 when there is none. */
export async function tenantIdOf(db: EntityManager, code: string): Promise<string> {
  const [row] = await db.query<{ id: string }[]>('SELECT id::text FROM broker.tenant WHERE code = $1', [
    code,
  ]);
  if (!row) throw notFound(`Tenant ${code} does not exist`);
  return row.id;
}

/** Tenants: only an operator creates them (the caller's check); each is then administered on its own. */
export class TenantAdministration {
  constructor(private readonly db: DataSource) {}

  async create(context: WriteContext, request: { id: string; name: string }): Promise<TenantView> {
    return inTransaction(this.db, context, async (tx) => {
      const [row] = await tx.query<(TenantView & { tenant_id: string })[]>(
        `INSERT INTO broker.tenant AS t (code, name) VALUES ($1, $2) ON CONFLICT (code) DO NOTHING
         RETURNING t.id::text AS tenant_id, ${TENANT_VIEW}`,
        [request.id, request.name],
      );
      if (!row) throw conflict(`Tenant ${request.id} already exists`);
      const { tenant_id: tenantId, ...view } = row;
      await recordAuditEvent(tx, context.actor, {
        tenantId,
        action: context.operation ?? 'createTenant',
        target: 'tenant',
        changes: { id: request.id, name: request.name },
      });
      return view;
    });
  }

  /** Every tenant, or only `only` (a tenant administrator's own). */
  list(page: PageRequest, only?: string): Promise<TenantPage> {
    return pageOf<TenantView>(
      this.db.manager,
      {
        select: TENANT_VIEW,
        from: `broker.tenant t${only === undefined ? '' : ' WHERE t.code = $1'}`,
        orderBy: 't.code',
        parameters: only === undefined ? [] : [only],
      },
      page,
    );
  }

  async get(code: string): Promise<TenantView> {
    const [row] = await this.db.query<TenantView[]>(
      `SELECT ${TENANT_VIEW} FROM broker.tenant t WHERE t.code = $1`,
      [code],
    );
    if (!row) throw notFound(`Tenant ${code} does not exist`);
    return row;
  }
}
