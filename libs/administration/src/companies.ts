import type { DataSource, EntityManager } from 'typeorm';
import type { CompanyAgreementPage, CompanyAgreementView, CompanyPage, CompanyView } from '@broker/contracts';
import { inTransaction, recordAuditEvent, type WriteContext } from './audit-trail.js';
import { brokerIdOf } from './broker-lookup.js';
import { conflict, invalid, notFound } from './errors.js';
import { pageOf, type PageRequest } from './paging.js';
import { utc, writtenRows } from './sql.js';
import { tenantIdOf } from './tenants.js';

const COMPANY_VIEW = `co.vu_number, co.name, ${utc('co.created_at')} AS created_at, ${utc('co.updated_at')} AS updated_at`;
const AGREEMENT_VIEW = `b.broker_number AS broker, co.vu_number, a.agency_number,
  ${utc('a.created_at')} AS created_at, ${utc('a.updated_at')} AS updated_at`;
const AGREEMENT_FROM = `broker.company_agreement a
  JOIN broker.broker b ON b.tenant_id = a.tenant_id AND b.id = a.broker_id
  JOIN broker.company co ON co.tenant_id = a.tenant_id AND co.id = a.company_id`;

export interface NewCompanyAgreement {
  broker: string;
  vuNumber: string;
  agencyNumber: string | null;
}

/** The id of the tenant's insurer with this VU number; undefined when there is none. */
export async function companyIdOf(
  db: EntityManager,
  tenantId: string,
  vuNumber: string,
): Promise<string | undefined> {
  const [row] = await db.query<{ id: string }[]>(
    'SELECT id::text FROM broker.company WHERE tenant_id = $1 AND vu_number = $2',
    [tenantId, vuNumber],
  );
  return row?.id;
}

/**
 * Insurers (by VU number: what an import's `companies` names) and brokers' agreements with them (what area C's
 * getGesellschaften lists beside the insurers of a broker's contracts). Both are read fresh by every import and
 * request: a change counts at once.
 */
export class CompanyAdministration {
  constructor(private readonly db: DataSource) {}

  async createCompany(
    context: WriteContext,
    tenantCode: string,
    request: { vuNumber: string; name: string },
  ): Promise<CompanyView> {
    return inTransaction(this.db, context, async (tx) => {
      const tenantId = await tenantIdOf(tx, tenantCode);
      const [row] = await tx.query<CompanyView[]>(
        `INSERT INTO broker.company AS co (tenant_id, vu_number, name) VALUES ($1, $2, $3)
         ON CONFLICT (tenant_id, vu_number) DO NOTHING RETURNING ${COMPANY_VIEW}`,
        [tenantId, request.vuNumber, request.name],
      );
      if (!row) throw conflict(`Insurer ${request.vuNumber} already exists`);
      await recordAuditEvent(tx, context.actor, {
        tenantId,
        action: context.operation ?? 'createCompany',
        target: `companies/${request.vuNumber}`,
        changes: { vu_number: request.vuNumber, name: request.name },
      });
      return row;
    });
  }

  async listCompanies(tenantCode: string, page: PageRequest): Promise<CompanyPage> {
    const db = this.db.manager;
    const tenantId = await tenantIdOf(db, tenantCode);
    return pageOf<CompanyView>(
      db,
      {
        select: COMPANY_VIEW,
        from: 'broker.company co WHERE co.tenant_id = $1',
        orderBy: 'co.vu_number',
        parameters: [tenantId],
      },
      page,
    );
  }

  async getCompany(tenantCode: string, vuNumber: string): Promise<CompanyView> {
    const db = this.db.manager;
    const tenantId = await tenantIdOf(db, tenantCode);
    const [view] = await db.query<CompanyView[]>(
      `SELECT ${COMPANY_VIEW} FROM broker.company co WHERE co.tenant_id = $1 AND co.vu_number = $2`,
      [tenantId, vuNumber],
    );
    if (!view) throw notFound(`Insurer ${vuNumber} does not exist`);
    return view;
  }

  async createAgreement(
    context: WriteContext,
    tenantCode: string,
    request: NewCompanyAgreement,
  ): Promise<CompanyAgreementView> {
    return inTransaction(this.db, context, async (tx) => {
      const tenantId = await tenantIdOf(tx, tenantCode);
      const brokerId = await brokerIdOf(tx, tenantId, request.broker);
      if (brokerId === undefined) throw invalid(`broker ${request.broker} is not a broker of this tenant`);
      const companyId = await companyIdOf(tx, tenantId, request.vuNumber);
      if (companyId === undefined)
        throw invalid(`vu_number ${request.vuNumber} is not an insurer of this tenant`);
      const [row] = await tx.query<{ id: string }[]>(
        `INSERT INTO broker.company_agreement (tenant_id, broker_id, company_id, agency_number) VALUES ($1, $2, $3, $4)
         ON CONFLICT (tenant_id, broker_id, company_id) DO NOTHING RETURNING id::text`,
        [tenantId, brokerId, companyId, request.agencyNumber],
      );
      if (!row) throw conflict(`Broker ${request.broker} already has an agreement with ${request.vuNumber}`);
      await recordAuditEvent(tx, context.actor, {
        tenantId,
        action: context.operation ?? 'createCompanyAgreement',
        target: agreementTarget(request.broker, request.vuNumber),
        changes: { broker: request.broker, vu_number: request.vuNumber, agency_number: request.agencyNumber },
      });
      const [view] = await tx.query<CompanyAgreementView[]>(
        `SELECT ${AGREEMENT_VIEW} FROM ${AGREEMENT_FROM} WHERE a.id = $1`,
        [row.id],
      );
      return view;
    });
  }

  async deleteAgreement(
    context: WriteContext,
    tenantCode: string,
    broker: string,
    vuNumber: string,
  ): Promise<void> {
    await inTransaction(this.db, context, async (tx) => {
      const tenantId = await tenantIdOf(tx, tenantCode);
      const [deleted] = await writtenRows<{ id: string }>(
        tx,
        `DELETE FROM broker.company_agreement a USING broker.broker b, broker.company co
          WHERE a.tenant_id = $1 AND b.tenant_id = a.tenant_id AND b.id = a.broker_id AND b.broker_number = $2
            AND co.tenant_id = a.tenant_id AND co.id = a.company_id AND co.vu_number = $3
          RETURNING a.id::text`,
        [tenantId, broker, vuNumber],
      );
      if (!deleted) throw notFound(`Broker ${broker} has no agreement with ${vuNumber}`);
      await recordAuditEvent(tx, context.actor, {
        tenantId,
        action: context.operation ?? 'deleteCompanyAgreement',
        target: agreementTarget(broker, vuNumber),
        changes: { deleted: true },
      });
    });
  }

  async listAgreements(
    tenantCode: string,
    filter: { broker?: string; vuNumber?: string },
    page: PageRequest,
  ): Promise<CompanyAgreementPage> {
    const db = this.db.manager;
    const tenantId = await tenantIdOf(db, tenantCode);
    const conditions = ['a.tenant_id = $1'];
    const parameters: unknown[] = [tenantId];
    if (filter.broker !== undefined) {
      parameters.push(filter.broker);
      conditions.push(`b.broker_number = $${parameters.length}`);
    }
    if (filter.vuNumber !== undefined) {
      parameters.push(filter.vuNumber);
      conditions.push(`co.vu_number = $${parameters.length}`);
    }
    return pageOf<CompanyAgreementView>(
      db,
      {
        select: AGREEMENT_VIEW,
        from: `${AGREEMENT_FROM} WHERE ${conditions.join(' AND ')}`,
        orderBy: 'b.broker_number, co.vu_number',
        parameters,
      },
      page,
    );
  }
}

export const agreementTarget = (broker: string, vuNumber: string) => `agreements/${broker}/${vuNumber}`;
