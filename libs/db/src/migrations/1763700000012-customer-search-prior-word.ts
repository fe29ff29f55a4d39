import type { MigrationInterface, QueryRunner } from 'typeorm';
import { extensionSchema } from './sql.js';
import { CustomerSearch1763700000008 } from './1763700000008-customer-search.js';

/**
 * The index entries of the search documents (customer, broker, word) of `documents`, a FROM item with the columns
 * customer_id, broker_id and words (a tsvector), each with `prior`: the customer's word before it in the order of
 * COLLATE "C" ('' for its first word). A tsvector keeps its lexemes in that order (byte-wise, the shorter first),
 * so the word before is the array element before.
 */
const entries = (documents: string) => `
  SELECT d.customer_id, d.broker_id, x.word, coalesce(d.list[x.n - 1], '') AS prior
    FROM (SELECT customer_id, broker_id, tsvector_to_array(words) AS list FROM ${documents}) d,
         unnest(d.list) WITH ORDINALITY AS x(word, n)`;

/**
 * Each entry of broker.customer_search_word (migration CustomerSearch1763700000008) also holds the customer's
 * word before it (`prior`, in the index as an included column). A customer's words beginning with some text are
 * consecutive in word order, so exactly one of them, the first, has a prior word that does not begin with the
 * text, that is, one that sorts before the text: `prior < text` picks one entry per customer from an index range,
 * and the range's customers are counted and paged without making them distinct first.
 *
 * broker.search_prefix_end(term) is where that range ends: the words beginning with a term are those from the
 * term (inclusive) to its end (exclusive) in the order of COLLATE "C".
 *
 * broker.search_terms(q) keeps its body but runs it as PL/pgSQL, which plans it once per session: as an SQL
 * function that cannot be inlined it was planned anew by every statement calling it.
 */
export class CustomerSearchPriorWord1763700000012 implements MigrationInterface {
  name = 'CustomerSearchPriorWord1763700000012';

  async up(db: QueryRunner): Promise<void> {
    await this.addPriorWords(db);
    await this.createPrefixEnd(db);
    await this.createRefresh(db);
    await this.createRebuild(db);
    await db.query('SELECT broker.customer_search_rebuild()');
    const [terms] = (await db.query(
      `SELECT prosrc AS body FROM pg_proc WHERE oid = 'broker.search_terms(text)'::regprocedure`,
    )) as { body: string }[];
    await db.query(`
      CREATE OR REPLACE FUNCTION broker.search_terms(q text) RETURNS text[]
      LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $terms$ BEGIN RETURN (${terms.body}); END $terms$`);
  }

  /*
   * The methods below are also what CustomerSearchByBroker1763700000013's down() restores, so they are not
   * private: this migration stays the only place they are written down.
   */

  async addPriorWords(db: QueryRunner): Promise<void> {
    await db.query(
      `ALTER TABLE broker.customer_search_word ADD COLUMN prior text COLLATE "C" NOT NULL DEFAULT ''`,
    );
    await db.query('ALTER TABLE broker.customer_search_word ALTER COLUMN prior DROP DEFAULT');
  }

  async createPrefixEnd(db: QueryRunner): Promise<void> {
    // The term with its last character incremented (over the surrogates, which text cannot hold). A search term
    // ends with a word character (up to U+FFFF), so there always is a next character.
    await db.query(`
      CREATE FUNCTION broker.search_prefix_end(term text) RETURNS text
      LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
        SELECT left(term, -1) || chr(CASE ascii(right(term, 1)) WHEN 55295 THEN 57344 ELSE ascii(right(term, 1)) + 1 END)
      $$`);
  }

  async createRefresh(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE OR REPLACE FUNCTION broker.customer_search_refresh(ids bigint[]) RETURNS void LANGUAGE plpgsql AS $$
      DECLARE
        stored broker.customer_search[];
        fresh broker.customer_search[];
      BEGIN
        IF cardinality(ids) = 0 THEN RETURN; END IF;
        SELECT array_agg(ROW(s.customer_id, s.broker_id, s.words)::broker.customer_search) INTO stored FROM (
          SELECT * FROM broker.customer_search WHERE customer_id = ANY (ids) ORDER BY customer_id FOR UPDATE) s;
        SELECT array_agg(ROW(v.customer_id, v.broker_id, v.words)::broker.customer_search) INTO fresh
          FROM broker.customer_search_source v WHERE v.customer_id = ANY (ids);
        -- Only what differs: a word gained or lost, and the word after it, whose prior word changed.
        WITH old AS (${entries('unnest(stored)')}),
             new AS (${entries('unnest(fresh)')}),
             gone AS (SELECT * FROM old EXCEPT SELECT * FROM new),
             deleted AS (
               DELETE FROM broker.customer_search_word w USING gone g
                WHERE w.word = g.word AND w.customer_id = g.customer_id),
             come AS (SELECT * FROM new EXCEPT SELECT * FROM old),
             inserted AS (
               INSERT INTO broker.customer_search_word (word, customer_id, broker_id, prior)
               SELECT word, customer_id, broker_id, prior FROM come)
        -- In word order, so that two transactions adding the same new words cannot deadlock.
        INSERT INTO broker.customer_search_vocabulary (word)
        SELECT DISTINCT word FROM come WHERE word !~ '[0-9@]' ORDER BY word
        ON CONFLICT DO NOTHING;
        DELETE FROM broker.customer_search s
         WHERE s.customer_id = ANY (ids) AND s.customer_id NOT IN (SELECT n.customer_id FROM unnest(fresh) n);
        INSERT INTO broker.customer_search AS s (customer_id, broker_id, words)
        SELECT * FROM unnest(fresh) n
        ON CONFLICT (customer_id) DO UPDATE SET broker_id = EXCLUDED.broker_id, words = EXCLUDED.words
         WHERE (s.broker_id, s.words) IS DISTINCT FROM (EXCLUDED.broker_id, EXCLUDED.words);
      END $$`);
  }

  async createRebuild(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE OR REPLACE FUNCTION broker.customer_search_rebuild() RETURNS void LANGUAGE plpgsql
      SET maintenance_work_mem = '256MB' AS $$
      BEGIN
        TRUNCATE broker.customer_search, broker.customer_search_word, broker.customer_search_vocabulary;
        DROP INDEX IF EXISTS broker.customer_search_word_idx;
        DROP INDEX IF EXISTS broker.customer_search_vocabulary_trgm_idx;
        INSERT INTO broker.customer_search SELECT customer_id, broker_id, words FROM broker.customer_search_source;
        INSERT INTO broker.customer_search_word (word, customer_id, broker_id, prior)
        SELECT word, customer_id, broker_id, prior FROM (${entries('broker.customer_search')}) e;
        INSERT INTO broker.customer_search_vocabulary (word)
        SELECT DISTINCT word FROM broker.customer_search_word WHERE word !~ '[0-9@]';
        -- broker_id and prior ride along so that visibility and the first word of a customer are decided in the
        -- index: counting needs no table access.
        CREATE INDEX customer_search_word_idx ON broker.customer_search_word (word, customer_id)
          INCLUDE (broker_id, prior);
        -- New words go straight into the index: a pending list would be read by every search until vacuumed.
        CREATE INDEX customer_search_vocabulary_trgm_idx ON broker.customer_search_vocabulary
          USING gin (word ${await extensionSchema(db, 'pg_trgm')}.gin_trgm_ops) WITH (fastupdate = off);
        ANALYZE broker.customer_search;
        ANALYZE broker.customer_search_word;
        ANALYZE broker.customer_search_vocabulary;
      END $$`);
  }

  /** Back to CustomerSearch1763700000008's functions (its own definitions) and index. */
  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP FUNCTION broker.customer_search_rebuild()');
    await db.query('DROP FUNCTION broker.customer_search_refresh(bigint[])');
    await db.query('ALTER TABLE broker.customer_search_word DROP COLUMN prior');
    await db.query('DROP FUNCTION broker.search_prefix_end(text)');
    const earlier = new CustomerSearch1763700000008();
    for (const name of ['search_terms', 'search_phone', 'search_fold'])
      await db.query(`DROP FUNCTION broker.${name}(text)`);
    await earlier.createQueryFunctions(db, await extensionSchema(db, 'unaccent'));
    await earlier.createRefresh(db);
    await earlier.createRebuild(db, await extensionSchema(db, 'pg_trgm'));
    await db.query('SELECT broker.customer_search_rebuild()');
  }
}
