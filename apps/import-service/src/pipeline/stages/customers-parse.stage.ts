import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SqlStage } from '../sql-stage.js';

/** Trimmed, inner runs of white space made one space; empty becomes NULL. */
const squeezed = (column: string) => `nullif(regexp_replace(btrim(${column}), '\\s+', ' ', 'g'), '')`;

/** The customers' contact entries of all their records, normalised (e-mail in lower case) and de-duplicated. */
const CONTACTS_OF_WANTED = `
  SELECT customer_key, jsonb_agg(jsonb_build_object('type', type, 'value', value, 'context', context)
                                 ORDER BY type, value) AS contacts
    FROM (SELECT DISTINCT ON (customer_key, type, lower(value)) customer_key, type, value, context
            FROM (SELECT w.customer_key, entry->>'type' AS type, entry->>'context' AS context,
                         CASE WHEN entry->>'type' = 'email' THEN lower(btrim(entry->>'value'))
                              ELSE ${squeezed(`entry->>'value'`)} END AS value
                    FROM wanted w, jsonb_array_elements(w.contacts) entry) cleaned
           WHERE value IS NOT NULL AND value <> ''
           ORDER BY customer_key, type, lower(value), context NULLS LAST) normalised
   GROUP BY customer_key`;

/**
 * validated → customersParsed: one merged customer per key from the staged customer records, its names,
 * address and contact entries normalised. The latest record of a customer gives its fields, the contact entries
 * of all its records are kept. A customer is taken when at least one of its contracts passed validation, or when
 * the file holds no contract of it at all.
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
         SELECT s.*
           FROM "import".staged_customer s LEFT JOIN contract_state cs USING (customer_key)
          WHERE s.process_id = $1 AND coalesce(cs.any_valid, true)),
       all_contacts AS (${CONTACTS_OF_WANTED}),
       latest AS (
         SELECT DISTINCT ON (customer_key) *,
                min(line) OVER (PARTITION BY customer_key) AS first_line,
                count(*) OVER (PARTITION BY customer_key) AS occurrences
           FROM wanted ORDER BY customer_key, seq DESC),
       merged AS (
         INSERT INTO "import".merged_customer
           (process_id, customer_key, line, occurrences, person_type, salutation, title, first_name, last_name,
            company_name, birth_date, street, postal_code, city, country, contacts)
         SELECT $1, l.customer_key, l.first_line, l.occurrences, l.person_type, l.salutation,
                ${squeezed('l.title')}, ${squeezed('l.first_name')}, ${squeezed('l.last_name')},
                ${squeezed('l.company_name')}, l.birth_date::date, ${squeezed('l.street')},
                nullif(regexp_replace(l.postal_code, '\\s', '', 'g'), ''), ${squeezed('l.city')},
                upper(coalesce(nullif(btrim(l.country), ''), 'DE')), coalesce(c.contacts, '[]')
           FROM latest l LEFT JOIN all_contacts c USING (customer_key)
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
