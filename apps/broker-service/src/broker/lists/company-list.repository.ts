import { Injectable } from '@nestjs/common';
import type { GesellschaftView } from '@broker/contracts';
import type { DataSource } from 'typeorm';
import { type PreparedStatement, runPrepared } from '@broker/db';
import { visibleBrokersCte } from '@broker/inventory';
import type { BrokerTreeRoot } from '../../visible-broker.js';

/** A broker's list of companies and when it last changed: a company joined or left it, or one was renamed. */
export interface CompanyList {
  lastModified: Date;
  items: GesellschaftView[];
}

/** Prepared: planning this statement costs more than running it, and a multi-call's parts run it again and again. */
const FIND_COMPANY_LIST: PreparedStatement = {
  name: 'svc-company-list',
  text: `WITH RECURSIVE ${visibleBrokersCte(1, 2)},
   target AS (
     SELECT b.id, b.created_at FROM broker.broker b JOIN visible_broker v ON v.id = b.id
      WHERE b.tenant_id = $1 AND b.broker_number = $3)
   SELECT greatest(
            (SELECT max(greatest(a.updated_at, c.updated_at)) FROM broker.company_agreement a
               JOIN broker.company c ON c.tenant_id = a.tenant_id AND c.id = a.company_id
              WHERE a.tenant_id = $1 AND a.broker_id = t.id),
            (SELECT max(greatest(bc.changed_at, CASE WHEN bc.contract_count > 0 THEN c.updated_at END))
               FROM broker.broker_company bc
               JOIN broker.company c ON c.tenant_id = bc.tenant_id AND c.id = bc.company_id
              WHERE bc.tenant_id = $1 AND bc.broker_id = t.id),
            t.created_at) AS changed,
          (SELECT coalesce(json_agg(json_build_object('Id', c.vu_number, 'Name', c.name)
                                    ORDER BY c.name, c.vu_number), '[]')
             FROM broker.company c
            WHERE c.tenant_id = $1 AND c.id IN (
              SELECT company_id FROM broker.company_agreement WHERE tenant_id = $1 AND broker_id = t.id
              UNION
              SELECT company_id FROM broker.broker_company
               WHERE tenant_id = $1 AND broker_id = t.id AND contract_count > 0)) AS items
     FROM target t`,
};

/**
 * A broker's companies: those it has an agreement with and those it has contracts with (counted per company
 * in broker.broker_company by triggers on the contracts), so neither the list nor its date reads a contract.
 */
@Injectable()
export class CompanyListRepository {
  /** The list of broker `brokerNumber` if it is the caller's broker or one below it; one round trip. */
  async find(db: DataSource, caller: BrokerTreeRoot, brokerNumber: string): Promise<CompanyList | undefined> {
    const [row] = await runPrepared<{ changed: Date; items: GesellschaftView[] }>(db, FIND_COMPANY_LIST, [
      caller.tenantId,
      caller.brokerId,
      brokerNumber,
    ]);
    return row && { lastModified: row.changed, items: row.items };
  }
}
