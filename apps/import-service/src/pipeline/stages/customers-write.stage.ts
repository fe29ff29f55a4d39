import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { deferSearchRefresh } from '@broker/inventory';
import { SqlStage } from '../sql-stage.js';

/** Customer fields an import carries; an empty field in the file never erases what the inventory holds. */
const IMPORTED_FIELDS = ['salutation', 'title', 'first_name', 'last_name', 'company_name', 'birth_date'];

/**
 * customersAssigned → customersFinalized: the accepted customers written in one upsert keyed by tenant,
 * target broker and external key: new ones are created, matched ones (and any another import created in the
 * meantime) updated. Every merged customer learns its inventory id. Their search documents are written once,
 * after their addresses and contacts, beside the contracts' write (ContractsWriteStage).
 */
@Injectable()
export class CustomersWriteStage extends SqlStage {
  readonly from = 'customersAssigned';

  protected async runIn(tx: EntityManager, processId: string): Promise<void> {
    await deferSearchRefresh(tx);
    const [counts] = await tx.query<{ created: number; updated: number }[]>(
      `WITH written AS (
         INSERT INTO broker.customer (tenant_id, broker_id, external_key, person_type, ${IMPORTED_FIELDS.join(', ')})
         SELECT p.tenant_id, p.broker_id, m.customer_key, m.person_type, ${IMPORTED_FIELDS.map((field) => `m.${field}`).join(', ')}
           FROM "import".merged_customer m JOIN "import".import_process p ON p.id = m.process_id
          WHERE m.process_id = $1 AND m.rejected_reason IS NULL
          ORDER BY m.customer_key
         ON CONFLICT (tenant_id, broker_id, external_key) WHERE external_key IS NOT NULL
         DO UPDATE SET person_type = EXCLUDED.person_type,
                       ${IMPORTED_FIELDS.map((field) => `${field} = coalesce(EXCLUDED.${field}, customer.${field})`).join(', ')}
         RETURNING id, external_key, xmax = 0 AS created),
       linked AS (
         UPDATE "import".merged_customer m SET customer_id = written.id
           FROM written WHERE m.process_id = $1 AND m.customer_key = written.external_key)
       SELECT count(*) FILTER (WHERE created)::int AS created, count(*) FILTER (WHERE NOT created)::int AS updated
         FROM written`,
      [processId],
    );
    await this.staging.recordCounts(tx, processId, {
      customersCreated: counts?.created ?? 0,
      customersUpdated: counts?.updated ?? 0,
    });
  }
}
