import type { MigrationInterface, QueryRunner } from 'typeorm';

const WORK_TABLES = ['staged_customer', 'staged_contract', 'merged_customer', 'merged_contract'];

/** The staged fields, each a text column (SQL name → its key in the record as staged before as JSON). */
const CUSTOMER_FIELDS: Record<string, string> = {
  person_type: `data->>'personType'`,
  salutation: `data->>'salutation'`,
  title: `data->>'title'`,
  first_name: `data->>'firstName'`,
  last_name: `data->>'lastName'`,
  company_name: `data->>'companyName'`,
  birth_date: `data->>'birthDate'`,
  street: `data->'address'->>'street'`,
  postal_code: `data->'address'->>'postalCode'`,
  city: `data->'address'->>'city'`,
  country: `data->'address'->>'country'`,
};
const CONTRACT_FIELDS: Record<string, string> = {
  line_of_business: `data->>'lineOfBusiness'`,
  status: `data->>'status'`,
  start_date: `data->>'startDate'`,
  end_date: `data->>'endDate'`,
  main_due_date: `data->>'mainDueDate'`,
  payment_mode: `data->>'paymentMode'`,
  net_premium_cents: `data->>'netPremiumCents'`,
  gross_premium_cents: `data->>'grossPremiumCents'`,
  currency: `data->>'currency'`,
};

/** Trimmed, inner runs of white space made one space; empty becomes NULL (as customersParsed does now). */
const squeezed = (column: string) => `nullif(regexp_replace(btrim(${column}), '\\s+', ' ', 'g'), '')`;

/** What customersPrepared did before this release, for customers an import in progress parsed before it. */
const NORMALISE_MERGED_CUSTOMERS = `
  UPDATE "import".merged_customer
     SET ${['title', 'first_name', 'last_name', 'company_name', 'street', 'city'].map((column) => `${column} = ${squeezed(column)}`).join(', ')},
         postal_code = nullif(regexp_replace(postal_code, '\\s', '', 'g'), ''),
         country = upper(coalesce(nullif(btrim(country), ''), 'DE')),
         contacts = (
           SELECT coalesce(jsonb_agg(jsonb_build_object('type', type, 'value', value, 'context', context)
                                     ORDER BY type, value), '[]')
             FROM (SELECT DISTINCT ON (type, lower(value)) type, value, context
                     FROM (SELECT entry->>'type' AS type, entry->>'context' AS context,
                                  CASE WHEN entry->>'type' = 'email' THEN lower(btrim(entry->>'value'))
                                       ELSE ${squeezed(`entry->>'value'`)} END AS value
                             FROM jsonb_array_elements(contacts) entry) cleaned
                    WHERE value IS NOT NULL AND value <> ''
                    ORDER BY type, lower(value), context NULLS LAST) normalised)`;

/** What contractsPrepared did before this release, for contracts an import in progress extracted before it. */
const LINK_EXTRACTED_CONTRACTS = `
  UPDATE "import".merged_contract mc SET customer_id = link.customer_id, company_id = link.company_id
    FROM (SELECT c.process_id, c.seq, m.customer_id, co.id AS company_id
            FROM "import".merged_contract c
            JOIN "import".import_process p ON p.id = c.process_id
            LEFT JOIN "import".merged_customer m
              ON m.process_id = c.process_id AND m.customer_key = c.customer_key AND m.rejected_reason IS NULL
            LEFT JOIN broker.company co ON co.tenant_id = p.tenant_id AND co.vu_number = c.vu_number
           WHERE c.customer_id IS NULL AND c.company_id IS NULL) link
   WHERE mc.process_id = link.process_id AND mc.seq = link.seq`;

/**
 * The import's work tables made cheaper to write, for issue 20's import target (bench/README.md, "Import"):
 *
 * - The staged records are typed columns instead of one JSON document each (the contact entries stay a JSON
 *   array). PostgreSQL took 1.8 s to take in 100,000 staged customers as jsonb and 0.8 s as columns (contracts
 *   1.3 against 0.5 s), the COPY data is less than half as large, and the later stages read columns instead of
 *   taking documents apart. Dates and amounts stay text, cast where they were cast before (the stages' rules are
 *   unchanged). Rows staged by an import in progress are converted.
 * - The work tables lose their foreign key to the process: each row written was checked one at a time (about 1 s
 *   per 100,000 rows; an import of 100,000 contracts writes 350,000). Only the pipeline writes these rows, for a
 *   process it has just read, and deletes them itself (`StagingRepository.release`, when the process is
 *   processed or failed); processes are never deleted, so the cascade had nothing to do.
 * - Customers are normalised when they are parsed, contracts linked to customer and company when they are
 *   extracted (one full-table update less each): the rows of imports in progress are brought to that state here
 *   (normalising is idempotent; only contracts extracted without links are linked).
 * - `merged_customer.matched_existing` and `merged_contract.existing_contract_id` go: customersAssigned and
 *   contractsPrepared count and check the matches by key instead of writing them into every row.
 *
 * The import's work tables change shape here, so this release breaks the rule of deploy/README.md ("Rolling
 * updates with migrations"): the import workers are stopped before its Job runs (the README says how).
 */
export class ImportStagingTyped1763700000019 implements MigrationInterface {
  name = 'ImportStagingTyped1763700000019';

  async up(db: QueryRunner): Promise<void> {
    for (const table of WORK_TABLES) {
      await db.query(`ALTER TABLE "import".${table} DROP CONSTRAINT ${table}_process_id_fkey`);
    }
    await typedColumns(db, 'staged_customer', CUSTOMER_FIELDS, `coalesce(data->'contacts', '[]')`);
    await typedColumns(db, 'staged_contract', CONTRACT_FIELDS);
    await db.query(NORMALISE_MERGED_CUSTOMERS);
    await db.query(LINK_EXTRACTED_CONTRACTS);
    await db.query(
      'ALTER TABLE "import".merged_customer DROP COLUMN matched_existing; ' +
        'ALTER TABLE "import".merged_contract DROP COLUMN existing_contract_id',
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE "import".merged_contract ADD COLUMN existing_contract_id bigint');
    await db.query(`
      ALTER TABLE "import".merged_customer ADD COLUMN matched_existing boolean NOT NULL DEFAULT false;
      UPDATE "import".merged_customer m SET matched_existing = true
        FROM "import".import_process p, broker.customer c
       WHERE p.id = m.process_id AND c.tenant_id = p.tenant_id AND c.broker_id = p.broker_id
         AND c.external_key = m.customer_key`);
    await db.query(`
      ALTER TABLE "import".staged_customer ADD COLUMN data jsonb;
      UPDATE "import".staged_customer SET data = jsonb_build_object(
        'key', customer_key, 'personType', person_type, 'salutation', salutation, 'title', title,
        'firstName', first_name, 'lastName', last_name, 'companyName', company_name, 'birthDate', birth_date,
        'address', jsonb_build_object('street', street, 'postalCode', postal_code, 'city', city, 'country', country),
        'contacts', contacts, 'line', line);
      ALTER TABLE "import".staged_customer ALTER COLUMN data SET NOT NULL,
        ${[...Object.keys(CUSTOMER_FIELDS), 'contacts'].map((column) => `DROP COLUMN ${column}`).join(', ')}`);
    await db.query(`
      ALTER TABLE "import".staged_contract ADD COLUMN data jsonb;
      UPDATE "import".staged_contract SET data = jsonb_build_object(
        'customerKey', customer_key, 'vuNumber', vu_number, 'policyNumber', policy_number,
        'lineOfBusiness', line_of_business, 'status', status, 'startDate', start_date, 'endDate', end_date,
        'mainDueDate', main_due_date, 'paymentMode', payment_mode,
        'netPremiumCents', net_premium_cents::bigint, 'grossPremiumCents', gross_premium_cents::bigint,
        'currency', currency, 'line', line);
      ALTER TABLE "import".staged_contract ALTER COLUMN data SET NOT NULL,
        ${Object.keys(CONTRACT_FIELDS)
          .map((column) => `DROP COLUMN ${column}`)
          .join(', ')}`);
    for (const table of WORK_TABLES) {
      await db.query(`DELETE FROM "import".${table} w
                       WHERE NOT EXISTS (SELECT 1 FROM "import".import_process p WHERE p.id = w.process_id)`);
      await db.query(`ALTER TABLE "import".${table} ADD CONSTRAINT ${table}_process_id_fkey
                        FOREIGN KEY (process_id) REFERENCES "import".import_process (id) ON DELETE CASCADE`);
    }
  }
}

/** Adds the fields' text columns (and `contacts`, when given), fills them from `data`, and drops `data`. */
async function typedColumns(
  db: QueryRunner,
  table: string,
  fields: Record<string, string>,
  contacts?: string,
): Promise<void> {
  const columns = Object.keys(fields);
  await db.query(`ALTER TABLE "import".${table}
    ${columns.map((column) => `ADD COLUMN ${column} text`).join(', ')}
    ${contacts ? `, ADD COLUMN contacts jsonb NOT NULL DEFAULT '[]'` : ''}`);
  await db.query(`UPDATE "import".${table}
    SET ${columns.map((column) => `${column} = ${fields[column]}`).join(', ')}
    ${contacts ? `, contacts = ${contacts}` : ''}`);
  await db.query(`ALTER TABLE "import".${table} DROP COLUMN data`);
}
