import type { MigrationInterface, QueryRunner } from 'typeorm';
import { CustomerSearch1763700000008 } from './1763700000008-customer-search.js';
import { CustomerSearchPriorWord1763700000012 } from './1763700000012-customer-search-prior-word.js';
import { extensionSchema } from './sql.js';

/** Further than any real hierarchy; only guards the chain query against a cycle in broker.parent_id. */
const MAX_BROKER_DEPTH = 64;
/**
 * Longer words (an absurd name or e-mail address) are left out of the documents: a key, `<broker id>:<word>`, must
 * stay within a lexeme's 2,047 bytes, and no term of a search (q has at most 200 characters) is that long.
 */
const LONGEST_WORD_BYTES = 1_000;
/**
 * How moves of brokers and refreshes of documents take turns (exclusive and shared advisory locks), so a document
 * is never written with a chain of brokers that a move committed in the meantime makes stale: PL/pgSQL statements,
 * `refresh` in customer_search_refresh(ids), `move` in the move trigger once `moved` (bigint[]) holds the brokers
 * whose parent changed.
 */
export interface HierarchyLocking {
  refresh: string;
  move: string;
}

/** One lock for the whole database (this migration's; CustomerSearchTenantLock1763700000014 takes one per tenant). */
const HIERARCHY_LOCK = `hashtextextended('broker.customer_search hierarchy', 0)`;
export const DATABASE_HIERARCHY_LOCKING: HierarchyLocking = {
  refresh: `PERFORM pg_advisory_xact_lock_shared(${HIERARCHY_LOCK});`,
  move: `PERFORM pg_advisory_xact_lock(${HIERARCHY_LOCK});`,
};

/**
 * searchKunden at broker-pool scale: a search costs what the caller's own customers cost, not what the tenant's do.
 *
 * Each customer's folded words (the documents of CustomerSearch1763700000008, unchanged) are indexed once for every
 * broker that sees the customer: its own broker and each broker above it (`brokers`, the customer's broker first).
 * A GIN index holds the keys `<broker id>:<word>` (broker.search_keys), so the customers a broker sees with a word
 * that is or begins with a term are one prefix match of `<broker id>:<term>`: the caller's own entries, whatever
 * the tenant holds. GIN keeps each key once with a compressed list of rows, so the index is a fraction of the
 * B-tree of one row per word and customer (customer_search_word, dropped here) that the earlier migrations built.
 *
 * A broker moved in the hierarchy changes the `brokers` of every customer below it, in the same transaction
 * (a trigger on broker.broker), so a move takes effect for search at once.
 *
 * A transaction that writes many customers (an import) may defer their documents: with the setting
 * `broker.search_refresh` = 'deferred' (transaction-local), inserts and updates of customers, addresses and
 * contacts leave the documents alone, and the transaction (or a later one) refreshes them in one set-based call;
 * each document is then written once instead of once per statement. A customer whose broker changes and a
 * customer deleted are refreshed at once all the same, so no broker finds another's customer even for a moment.
 *
 * The index is built with `fastupdate = off`: GIN's pending list would otherwise be read by every search until
 * VACUUM merged it, so search speed would depend on when autovacuum last ran.
 */
export class CustomerSearchByBroker1763700000013 implements MigrationInterface {
  name = 'CustomerSearchByBroker1763700000013';

  async up(db: QueryRunner): Promise<void> {
    for (const name of [
      'customer_search_rebuild()',
      'customer_search_refresh(bigint[])',
      'search_prefix_end(text)',
    ])
      await db.query(`DROP FUNCTION broker.${name}`);
    await db.query('DROP TABLE broker.customer_search_word');
    await db.query('DROP TABLE broker.customer_search');
    await db.query(`
      CREATE TABLE broker.customer_search (
        customer_id bigint PRIMARY KEY,
        brokers bigint[] NOT NULL,
        words tsvector NOT NULL
      )`);
    const unaccent = await extensionSchema(db, 'unaccent');
    const shortWords = (all: string) =>
      `ARRAY(SELECT w FROM unnest(${all}) w WHERE w <> '' AND octet_length(w) <= ${LONGEST_WORD_BYTES})`;
    await db.query(`CREATE OR REPLACE VIEW broker.customer_search_source AS
      ${new CustomerSearch1763700000008().sourceQuery(unaccent, shortWords)}`);
    await createKeyFunctions(db);
    await createChains(db);
    await createRefresh(db, DATABASE_HIERARCHY_LOCKING);
    await createRebuild(db, await extensionSchema(db, 'pg_trgm'));
    await createRechain(db);
    await createMoveFunction(db, DATABASE_HIERARCHY_LOCKING);
    await db.query(`
      CREATE TRIGGER customer_search_brokers_moved AFTER UPDATE ON broker.broker
        REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
        EXECUTE FUNCTION broker.customer_search_brokers_moved()`);
    await createDeferringTriggerFunctions(db);
    await db.query('SELECT broker.customer_search_rebuild()');
  }

  /** Back to CustomerSearchPriorWord1763700000012's tables and functions, rebuilt from the inventory. */
  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TRIGGER customer_search_brokers_moved ON broker.broker');
    await db.query('DROP AGGREGATE broker.search_all(tsquery)');
    await db.query('DROP TABLE broker.customer_search');
    for (const name of [
      'customer_search_brokers_moved()',
      'customer_search_rebuild()',
      'customer_search_rechain(bigint[])',
      'customer_search_refresh(bigint[])',
      'search_broker_chains(bigint[])',
      'search_match(bigint, text, text[])',
      'search_operand(text, boolean)',
      'search_keys(bigint[], tsvector)',
    ])
      await db.query(`DROP FUNCTION broker.${name}`);
    const first = new CustomerSearch1763700000008();
    await db.query(`CREATE OR REPLACE VIEW broker.customer_search_source AS
      ${first.sourceQuery(await extensionSchema(db, 'unaccent'))}`);
    await first.createDocumentTables(db);
    await first.createTriggerFunctions(db);
    const earlier = new CustomerSearchPriorWord1763700000012();
    await earlier.addPriorWords(db);
    await earlier.createPrefixEnd(db);
    await earlier.createRefresh(db);
    await earlier.createRebuild(db);
    await db.query('SELECT broker.customer_search_rebuild()');
  }
}

/**
 * broker.search_keys: the index keys of a document. broker.search_operand: a tsquery operand that takes a
 * lexeme literally (quoted; any character allowed), for the lexeme itself or (prefix) every lexeme beginning with
 * it. broker.search_match: the tsquery of a broker's customers with a word that is or begins with `term`, or is
 * one of `inside` (the words holding the term inside). broker.search_all: the AND of tsqueries, an aggregate.
 */
async function createKeyFunctions(db: QueryRunner): Promise<void> {
  await db.query(`
    CREATE FUNCTION broker.search_keys(brokers bigint[], words tsvector) RETURNS tsvector
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
      SELECT array_to_tsvector(ARRAY(
        SELECT b::text || ':' || w FROM unnest(brokers) b, unnest(tsvector_to_array(words)) w))
    $$`);
  await db.query(`
    CREATE FUNCTION broker.search_operand(lexeme text, prefix boolean) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
      SELECT '''' || replace(replace(lexeme, '\\', '\\\\'), '''', '''''') || ''''
             || CASE WHEN prefix THEN ':*' ELSE '' END
    $$`);
  await db.query(`
    CREATE FUNCTION broker.search_match(broker bigint, term text, inside text[]) RETURNS tsquery
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
      SELECT (broker.search_operand(broker::text || ':' || term, true)
              || coalesce((SELECT string_agg(' | ' || broker.search_operand(broker::text || ':' || w, false), '')
                             FROM unnest(inside) w), ''))::tsquery
    $$`);
  await db.query('CREATE AGGREGATE broker.search_all(tsquery) (SFUNC = tsquery_and, STYPE = tsquery)');
}

/** broker.search_broker_chains: each given broker with the brokers above it, itself first. */
async function createChains(db: QueryRunner): Promise<void> {
  await db.query(`
    CREATE FUNCTION broker.search_broker_chains(ids bigint[])
    RETURNS TABLE (broker_id bigint, brokers bigint[]) LANGUAGE sql STABLE AS $$
      WITH RECURSIVE chain(broker_id, ancestor, depth) AS (
        SELECT id, id, 0 FROM unnest(ids) AS id
        UNION ALL
        SELECT c.broker_id, b.parent_id, c.depth + 1 FROM chain c JOIN broker.broker b ON b.id = c.ancestor
         WHERE b.parent_id IS NOT NULL AND c.depth < ${MAX_BROKER_DEPTH})
      SELECT broker_id, array_agg(ancestor ORDER BY depth) FROM chain GROUP BY broker_id
    $$`);
}

/**
 * Brings the documents of the given customers up to date: new and changed ones written, unchanged ones left alone
 * (no dead row, no new index entries), those gone deleted. It first waits for a move of brokers in progress, then
 * locks the customers (in id order, so two refreshes cannot deadlock; NO KEY UPDATE does not block the foreign-key
 * checks of their addresses and contacts), so that two transactions refreshing the same customers take turns and
 * the second computes the documents from what the first committed; its next statement sees it. Rows are written in
 * the order of their broker, so a broker's customers tend to share pages: a search then reads fewer pages.
 */
export async function createRefresh(db: QueryRunner, locking: HierarchyLocking): Promise<void> {
  await db.query(`
    CREATE OR REPLACE FUNCTION broker.customer_search_refresh(ids bigint[]) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      IF cardinality(ids) = 0 THEN RETURN; END IF;
      ${locking.refresh}
      PERFORM FROM broker.customer WHERE id = ANY (ids) ORDER BY id FOR NO KEY UPDATE;
      WITH source AS MATERIALIZED (
             SELECT v.customer_id, v.broker_id, v.words FROM broker.customer_search_source v
              WHERE v.customer_id = ANY (ids)),
           fresh AS (
             SELECT s.customer_id, c.brokers, s.words
               FROM source s JOIN broker.search_broker_chains(ARRAY(SELECT DISTINCT broker_id FROM source)) c
                    USING (broker_id)),
           gone AS (
             DELETE FROM broker.customer_search s
              WHERE s.customer_id = ANY (ids) AND s.customer_id NOT IN (SELECT customer_id FROM source)),
           vocabulary AS (
             INSERT INTO broker.customer_search_vocabulary (word)
             SELECT DISTINCT w FROM fresh, unnest(tsvector_to_array(fresh.words)) w WHERE w !~ '[0-9@]' ORDER BY w
             ON CONFLICT DO NOTHING)
      INSERT INTO broker.customer_search AS s (customer_id, brokers, words)
      SELECT customer_id, brokers, words FROM fresh ORDER BY brokers[1], customer_id
      ON CONFLICT (customer_id) DO UPDATE SET brokers = EXCLUDED.brokers, words = EXCLUDED.words
       WHERE (s.brokers, s.words) IS DISTINCT FROM (EXCLUDED.brokers, EXCLUDED.words);
    END $$`);
}

/** The bulk path (the backfill, or after a load with the triggers off): fill first, index after. */
async function createRebuild(db: QueryRunner, trgm: string): Promise<void> {
  await db.query(`
    CREATE FUNCTION broker.customer_search_rebuild() RETURNS void LANGUAGE plpgsql
    SET maintenance_work_mem = '256MB' AS $$
    BEGIN
      TRUNCATE broker.customer_search, broker.customer_search_vocabulary;
      DROP INDEX IF EXISTS broker.customer_search_keys_idx;
      DROP INDEX IF EXISTS broker.customer_search_vocabulary_trgm_idx;
      INSERT INTO broker.customer_search (customer_id, brokers, words)
      SELECT v.customer_id, c.brokers, v.words
        FROM broker.customer_search_source v
        JOIN broker.search_broker_chains(ARRAY(SELECT id FROM broker.broker)) c USING (broker_id)
       ORDER BY c.brokers[1], v.customer_id;
      INSERT INTO broker.customer_search_vocabulary (word)
      SELECT DISTINCT w FROM broker.customer_search, unnest(tsvector_to_array(words)) w WHERE w !~ '[0-9@]';
      CREATE INDEX customer_search_keys_idx ON broker.customer_search
        USING gin (broker.search_keys(brokers, words)) WITH (fastupdate = off);
      CREATE INDEX customer_search_vocabulary_trgm_idx ON broker.customer_search_vocabulary
        USING gin (word ${trgm}.gin_trgm_ops) WITH (fastupdate = off);
      ANALYZE broker.customer_search;
      ANALYZE broker.customer_search_vocabulary;
    END $$`);
}

/**
 * When brokers move (their parent_id changes), every customer below them gets its new chain of brokers, in the
 * move's own statement: one set-based update of those customers' rows. The move first waits for the refreshes in
 * progress (HierarchyLocking), and the rechain, a statement after that, sees the documents they committed.
 */
async function createRechain(db: QueryRunner): Promise<void> {
  await db.query(`
    CREATE FUNCTION broker.customer_search_rechain(moved bigint[]) RETURNS void LANGUAGE sql AS $$
      WITH RECURSIVE below(id, tenant_id) AS (
             SELECT id, tenant_id FROM broker.broker WHERE id = ANY (moved)
             UNION
             SELECT b.id, b.tenant_id FROM broker.broker b JOIN below p ON b.parent_id = p.id),
           chains AS (SELECT * FROM broker.search_broker_chains(ARRAY(SELECT id FROM below)))
      UPDATE broker.customer_search s SET brokers = ch.brokers
        FROM below b JOIN broker.customer c ON c.tenant_id = b.tenant_id AND c.broker_id = b.id
             JOIN chains ch ON ch.broker_id = b.id
       WHERE s.customer_id = c.id AND s.brokers IS DISTINCT FROM ch.brokers
    $$`);
}

/** The statement trigger of broker.broker: rechains the customers below the brokers an update moved. */
export async function createMoveFunction(db: QueryRunner, locking: HierarchyLocking): Promise<void> {
  await db.query(`
    CREATE OR REPLACE FUNCTION broker.customer_search_brokers_moved() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      moved bigint[] := ARRAY(
        SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.parent_id IS DISTINCT FROM o.parent_id);
    BEGIN
      ${locking.move}
      PERFORM broker.customer_search_rechain(moved);
      RETURN NULL;
    END $$`);
}

/** The triggers of CustomerSearch1763700000008, leaving the documents to the writer when it deferred them. */
async function createDeferringTriggerFunctions(db: QueryRunner): Promise<void> {
  const deferred = `current_setting('broker.search_refresh', true) IS NOT DISTINCT FROM 'deferred'`;
  await db.query(`
    CREATE OR REPLACE FUNCTION broker.customer_search_customers_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        IF NOT ${deferred} THEN PERFORM broker.customer_search_refresh(ARRAY(SELECT id FROM new_rows)); END IF;
      ELSIF TG_OP = 'UPDATE' THEN
        PERFORM broker.customer_search_refresh(ARRAY(
          SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
           WHERE n.broker_id IS DISTINCT FROM o.broker_id
              OR NOT ${deferred}
                 AND (n.first_name, n.last_name, n.company_name, n.contact_person)
                     IS DISTINCT FROM (o.first_name, o.last_name, o.company_name, o.contact_person)));
      ELSE
        PERFORM broker.customer_search_refresh(ARRAY(SELECT id FROM old_rows));
      END IF;
      RETURN NULL;
    END $$`);
  await db.query(`
    CREATE OR REPLACE FUNCTION broker.customer_search_parts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' THEN
        PERFORM broker.customer_search_refresh(ARRAY(SELECT DISTINCT customer_id FROM old_rows));
      ELSIF ${deferred} THEN
        NULL;
      ELSIF TG_OP = 'INSERT' THEN
        PERFORM broker.customer_search_refresh(ARRAY(SELECT DISTINCT customer_id FROM new_rows));
      ELSE
        PERFORM broker.customer_search_refresh(ARRAY(
          SELECT customer_id FROM new_rows UNION SELECT customer_id FROM old_rows));
      END IF;
      RETURN NULL;
    END $$`);
}
