import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SqlStage } from '../sql-stage.js';

/**
 * validated → customersParsed: one merged customer per key from the staged customer records. The latest
 * record of a customer gives its fields, the contact entries of all its records are kept. A customer is taken
 * when at least one of its contracts passed validation, or when the file holds no contract of it at all.
 */
@Injectable()
export class CustomersParseStage extends SqlStage {
  readonly from = 'validated';

  protected async runIn(tx: EntityManager, processId: string): Promise<void> {
    await tx.query('DELETE FROM "import".merged_customer WHERE process_id = $1', [processId]);
    const [counts] = await tx.query<{ parsed: number; records: number; skipped: number }[]>(
      `WITH contract_state AS (
         SELECT customer_key, bool_or(rejected_reason IS NULL) AS any_valid
           FROM "import".staged_contract WHERE process_id = $1 GROUP BY customer_key),
       wanted AS (
         SELECT s.customer_key, s.seq, s.line, s.data
           FROM "import".staged_customer s LEFT JOIN contract_state cs USING (customer_key)
          WHERE s.process_id = $1 AND coalesce(cs.any_valid, true)),
       contacts AS (
         SELECT customer_key, jsonb_agg(DISTINCT contact) AS contacts
           FROM wanted, jsonb_array_elements(data->'contacts') contact GROUP BY customer_key),
       latest AS (
         SELECT DISTINCT ON (customer_key) customer_key, data,
                min(line) OVER (PARTITION BY customer_key) AS first_line,
                count(*) OVER (PARTITION BY customer_key) AS occurrences
           FROM wanted ORDER BY customer_key, seq DESC),
       merged AS (
         INSERT INTO "import".merged_customer
           (process_id, customer_key, line, occurrences, person_type, salutation, title, first_name, last_name,
            company_name, birth_date, street, postal_code, city, country, contacts)
         SELECT $1, l.customer_key, l.first_line, l.occurrences, l.data->>'personType', l.data->>'salutation',
                l.data->>'title', l.data->>'firstName', l.data->>'lastName', l.data->>'companyName',
                (l.data->>'birthDate')::date, l.data->'address'->>'street', l.data->'address'->>'postalCode',
                l.data->'address'->>'city', l.data->'address'->>'country', coalesce(c.contacts, '[]')
           FROM latest l LEFT JOIN contacts c USING (customer_key)
         RETURNING occurrences)
       SELECT count(*)::int AS parsed, coalesce(sum(occurrences), 0)::int AS records,
              (SELECT count(DISTINCT customer_key)::int FROM "import".staged_customer WHERE process_id = $1)
                - count(*)::int AS skipped
         FROM merged`,
      [processId],
    );
    await this.staging.analyze(tx, 'merged_customer');
    await this.staging.recordCounts(tx, processId, {
      customersParsed: counts?.parsed ?? 0,
      customerRecordsMerged: (counts?.records ?? 0) - (counts?.parsed ?? 0),
      customersWithoutValidContract: counts?.skipped ?? 0,
    });
  }
}
