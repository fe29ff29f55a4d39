import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

export interface CompanyItem {
  /** The VU number. */
  Id: string;
  Name: string;
}

/**
 * A broker's companies: those it has an agreement with and those it has contracts with (counted per company
 * in broker.broker_company by triggers on the contracts).
 */
@Injectable()
export class CompanyListRepository {
  /** When the list last changed: a company joined or left it, or one of its companies was renamed. */
  async lastModified(db: EntityManager, tenantId: string, brokerId: string): Promise<Date> {
    const [row] = await db.query<{ changed: Date }[]>(
      `SELECT greatest(
         (SELECT max(greatest(a.updated_at, c.updated_at)) FROM broker.company_agreement a
            JOIN broker.company c ON c.tenant_id = a.tenant_id AND c.id = a.company_id
           WHERE a.tenant_id = $1 AND a.broker_id = $2),
         (SELECT max(greatest(bc.changed_at, CASE WHEN bc.contract_count > 0 THEN c.updated_at END))
            FROM broker.broker_company bc
            JOIN broker.company c ON c.tenant_id = bc.tenant_id AND c.id = bc.company_id
           WHERE bc.tenant_id = $1 AND bc.broker_id = $2),
         (SELECT created_at FROM broker.broker WHERE tenant_id = $1 AND id = $2)) AS changed`,
      [tenantId, brokerId],
    );
    return row.changed;
  }

  async list(db: EntityManager, tenantId: string, brokerId: string): Promise<CompanyItem[]> {
    return db.query<CompanyItem[]>(
      `SELECT c.vu_number AS "Id", c.name AS "Name" FROM broker.company c
        WHERE c.tenant_id = $1 AND c.id IN (
          SELECT company_id FROM broker.company_agreement WHERE tenant_id = $1 AND broker_id = $2
          UNION
          SELECT company_id FROM broker.broker_company WHERE tenant_id = $1 AND broker_id = $2 AND contract_count > 0)
        ORDER BY c.name, c.vu_number`,
      [tenantId, brokerId],
    );
  }
}
