import type { MigrationInterface, QueryRunner } from 'typeorm';
import { TIMESTAMP_COLUMNS, touchTrigger } from './sql.js';

/** Contracts per broker and company, one row each, from transition tables `added` and/or `removed`. */
const CONTRACT_DELTAS = {
  INSERT: 'SELECT tenant_id, broker_id, company_id, 1 AS delta FROM added',
  DELETE: 'SELECT tenant_id, broker_id, company_id, -1 AS delta FROM removed',
  UPDATE: `SELECT tenant_id, broker_id, company_id, 1 AS delta FROM added
           UNION ALL SELECT tenant_id, broker_id, company_id, -1 FROM removed`,
};

type ContractEvent = keyof typeof CONTRACT_DELTAS;

/**
 * Adds one statement's contracts to the counts; `changed_at` moves when a count reaches or leaves zero. Existing
 * rows are updated before missing ones are inserted: an INSERT ... ON CONFLICT would check the count of the
 * proposed row (negative for a removal) against the constraint before finding the conflict.
 */
function countingFunction(event: ContractEvent): string {
  return `
    CREATE FUNCTION broker.count_broker_companies_on_${event.toLowerCase()}() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
      -- Rows locked in key order, so two imports touching the same pairs wait instead of deadlocking.
      PERFORM 1 FROM broker.broker_company bc
        WHERE (bc.tenant_id, bc.broker_id, bc.company_id) IN
              (SELECT tenant_id, broker_id, company_id FROM (${CONTRACT_DELTAS[event]}) AS one)
        ORDER BY bc.tenant_id, bc.broker_id, bc.company_id FOR UPDATE;
      WITH change AS (
        SELECT tenant_id, broker_id, company_id, sum(delta) AS delta FROM (${CONTRACT_DELTAS[event]}) AS one
         GROUP BY 1, 2, 3 HAVING sum(delta) <> 0),
      counted AS (
        UPDATE broker.broker_company bc
           SET contract_count = bc.contract_count + change.delta,
               changed_at = CASE WHEN (bc.contract_count = 0) <> (bc.contract_count + change.delta = 0)
                                 THEN clock_timestamp() ELSE bc.changed_at END
          FROM change
         WHERE bc.tenant_id = change.tenant_id AND bc.broker_id = change.broker_id
           AND bc.company_id = change.company_id
        RETURNING bc.tenant_id, bc.broker_id, bc.company_id)
      INSERT INTO broker.broker_company AS bc (tenant_id, broker_id, company_id, contract_count)
      SELECT tenant_id, broker_id, company_id, delta FROM change
       WHERE NOT EXISTS (SELECT 1 FROM counted
                          WHERE counted.tenant_id = change.tenant_id AND counted.broker_id = change.broker_id
                            AND counted.company_id = change.company_id)
      -- A row another transaction inserted meanwhile (only additions can meet one).
      ON CONFLICT (tenant_id, broker_id, company_id) DO UPDATE
        SET contract_count = bc.contract_count + EXCLUDED.contract_count,
            changed_at = CASE WHEN bc.contract_count = 0 THEN clock_timestamp() ELSE bc.changed_at END;
      RETURN NULL;
    END $$`;
}

function countingTrigger(event: ContractEvent): string {
  const tables = {
    INSERT: 'NEW TABLE AS added',
    DELETE: 'OLD TABLE AS removed',
    UPDATE: 'OLD TABLE AS removed NEW TABLE AS added',
  };
  const name = event.toLowerCase();
  return `CREATE TRIGGER contract_count_broker_companies_on_${name} AFTER ${event} ON broker.contract
    REFERENCING ${tables[event]} FOR EACH STATEMENT EXECUTE FUNCTION broker.count_broker_companies_on_${name}()`;
}

const EVENTS = Object.keys(CONTRACT_DELTAS) as ContractEvent[];

/**
 * Area C: a broker's list of companies (GET {base_url}/{vmt}/gesellschaften) = the insurers it has an agreement
 * (Courtage- or Vermittlervereinbarung) with plus those it has contracts with.
 *
 * `broker_company` counts each broker's contracts per company, kept by statement-level triggers on
 * `broker.contract` (one grouped update per statement, so a bulk import pays once, not per row). `changed_at`
 * moves only when a company enters or leaves a broker's contracts, or an agreement of the broker with it ends
 * (a row with count 0 keeps that date), which gives the list an exact Last-Modified without reading the
 * broker's contracts. A change is dated by its statement (clock_timestamp(), not the transaction's start).
 */
export class CompanyAgreements1763700000010 implements MigrationInterface {
  name = 'CompanyAgreements1763700000010';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE broker.company_agreement (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        tenant_id bigint NOT NULL,
        broker_id bigint NOT NULL,
        company_id bigint NOT NULL,
        agency_number text,${TIMESTAMP_COLUMNS},
        FOREIGN KEY (tenant_id, broker_id) REFERENCES broker.broker (tenant_id, id),
        FOREIGN KEY (tenant_id, company_id) REFERENCES broker.company (tenant_id, id),
        UNIQUE (tenant_id, broker_id, company_id)
      )`);
    await db.query(touchTrigger('broker.company_agreement'));
    await db.query(`
      CREATE TABLE broker.broker_company (
        tenant_id bigint NOT NULL,
        broker_id bigint NOT NULL,
        company_id bigint NOT NULL,
        contract_count bigint NOT NULL CHECK (contract_count >= 0),
        changed_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (tenant_id, broker_id, company_id)
      )`);
    // No contract may be written between the backfill and the triggers taking over.
    await db.query('LOCK TABLE broker.contract IN SHARE ROW EXCLUSIVE MODE');
    await db.query(`
      INSERT INTO broker.broker_company (tenant_id, broker_id, company_id, contract_count)
      SELECT tenant_id, broker_id, company_id, count(*) FROM broker.contract GROUP BY 1, 2, 3`);
    for (const event of EVENTS) {
      await db.query(countingFunction(event));
      await db.query(countingTrigger(event));
    }
    // Agreements are few and rarely end: row-level triggers suffice.
    await db.query(`
      CREATE FUNCTION broker.note_ended_company_agreement() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO broker.broker_company (tenant_id, broker_id, company_id, contract_count)
        VALUES (OLD.tenant_id, OLD.broker_id, OLD.company_id, 0)
        ON CONFLICT (tenant_id, broker_id, company_id) DO UPDATE SET changed_at = clock_timestamp();
        RETURN NULL;
      END $$`);
    await db.query(`
      CREATE TRIGGER company_agreement_note_ended_on_delete AFTER DELETE ON broker.company_agreement
        FOR EACH ROW EXECUTE FUNCTION broker.note_ended_company_agreement()`);
    await db.query(`
      CREATE TRIGGER company_agreement_note_ended_on_update AFTER UPDATE OF broker_id, company_id
        ON broker.company_agreement FOR EACH ROW
        WHEN (OLD.broker_id <> NEW.broker_id OR OLD.company_id <> NEW.company_id)
        EXECUTE FUNCTION broker.note_ended_company_agreement()`);
  }

  async down(db: QueryRunner): Promise<void> {
    for (const event of EVENTS) {
      const name = event.toLowerCase();
      await db.query(`DROP TRIGGER contract_count_broker_companies_on_${name} ON broker.contract`);
      await db.query(`DROP FUNCTION broker.count_broker_companies_on_${name}()`);
    }
    await db.query('DROP TABLE broker.company_agreement');
    await db.query('DROP FUNCTION broker.note_ended_company_agreement()');
    await db.query('DROP TABLE broker.broker_company');
  }
}
