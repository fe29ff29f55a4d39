import type { MigrationInterface, QueryRunner } from 'typeorm';
import { extensionSchema } from './sql.js';

/** Set on an extension this migration created, so that `down` drops only what `up` created. */
const CREATED_MARKER =
  'Created by migration CustomerSearch1763700000008 (customer search); its down drops it';
const EXTENSIONS = ['unaccent', 'pg_trgm'];

/** A word character after folding: digits, a-z and any character beyond Latin-1's symbols. */
const WORD = '0-9a-z\\u00c0-\\uffff';

/**
 * Folding, as an SQL expression over `text`: the umlauts spelled out (ä → ae, ö → oe, ü → ue, ß → ss), then every
 * other accent removed by unaccent, then lower case. Written out (not a function call) wherever it runs once per
 * customer: a non-inlined SQL function costs microseconds per call, which a million customers multiply.
 */
function fold(unaccent: string, text: string): string {
  const umlauts = [
    ['ä', 'ae'],
    ['ö', 'oe'],
    ['ü', 'ue'],
    ['Ä', 'Ae'],
    ['Ö', 'Oe'],
    ['Ü', 'Ue'],
    ['ß', 'ss'],
    ['ẞ', 'SS'],
  ].reduce((inner, [from, to]) => `replace(${inner}, '${from}', '${to}')`, text);
  return `lower(${unaccent}.unaccent('${unaccent}.unaccent'::regdictionary, ${umlauts}))`;
}

/** The words of a folded text (may contain empty strings). */
const words = (folded: string) => `string_to_array(regexp_replace(${folded}, '[^${WORD}]+', ' ', 'g'), ' ')`;

/** A phone number's digits; international numbers as 00 + country code, German ones (+49, 0049) nationally. */
const phone = (value: string) => `(
  SELECT CASE WHEN international LIKE '49%' THEN '0' || substr(international, 3)
              WHEN international IS NOT NULL THEN '00' || international
              ELSE digits END
    FROM (SELECT regexp_replace(replace(${value}, '(0)', ''), '[^0-9]', '', 'g') AS digits) d,
         LATERAL (SELECT CASE WHEN ${value} ~ '^\\s*\\+' THEN digits
                              WHEN digits LIKE '00%' THEN substr(digits, 3) END AS international) i)`;

/**
 * searchKunden (area C). Every customer's words, folded, are its search document: a tsvector in
 * broker.customer_search. Its lexemes are indexed as an inverted index in a B-tree, broker.customer_search_word
 * (one row per word and customer, with the customer's broker), so that whole words and word beginnings are found
 * and counted by index-only scans; the distinct words without digits or @ form broker.customer_search_vocabulary,
 * indexed by pg_trgm, where the words holding a fragment are looked up. Statement-level triggers keep all three
 * current.
 *
 * The words: the customer id; first and last name, company and contact person; street, postal code and city of
 * every address; every e-mail address (whole); every phone number's digits (see `phone`); words holding an
 * umlaut also without the dots (Müller → mueller and muller).
 */
export class CustomerSearch1763700000008 implements MigrationInterface {
  name = 'CustomerSearch1763700000008';

  async up(db: QueryRunner): Promise<void> {
    const existing = (await db.query('SELECT extname FROM pg_extension WHERE extname = ANY ($1)', [
      EXTENSIONS,
    ])) as { extname: string }[];
    for (const extension of EXTENSIONS) {
      if (existing.some((row) => row.extname === extension)) continue;
      await db.query(`CREATE EXTENSION IF NOT EXISTS ${extension}`);
      await db.query(`COMMENT ON EXTENSION ${extension} IS '${CREATED_MARKER}'`);
    }
    const unaccent = await extensionSchema(db, 'unaccent');
    const trgm = await extensionSchema(db, 'pg_trgm');

    await this.createQueryFunctions(db, unaccent);
    await this.createDocumentTables(db);
    // When a word was first seen: words no customer holds any more stay (harmless: they find no entry) until a
    // rebuild; this tells how old they are.
    await db.query(`
      CREATE TABLE broker.customer_search_vocabulary (
        word text COLLATE "C" PRIMARY KEY,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE VIEW broker.customer_search_source AS ${this.sourceQuery(unaccent)}`);
    await this.createRefresh(db);
    await this.createRebuild(db, trgm);
    await this.createTriggers(db);
    await db.query('SELECT broker.customer_search_rebuild()');
  }

  /**
   * The query of broker.customer_search_source: each customer's words. `kept` picks the words of the document from
   * the array of all of them (here: all but empty strings); CustomerSearchByBroker1763700000013 also leaves out
   * words too long for its index keys.
   */
  sourceQuery(unaccent: string, kept = (all: string) => `array_remove(${all}, '')`): string {
    return `
      SELECT c.id AS customer_id, c.broker_id,
             array_to_tsvector(${kept(`
               ARRAY[c.id::text] || coalesce(k.emails, '{}') || coalesce(k.phones, '{}')
               || ${words('f.folded')}
               || CASE WHEN f.raw ~ '[äöüÄÖÜ]'
                       THEN ${words(fold(unaccent, "translate(f.raw, 'äöüÄÖÜ', 'aouAOU')"))}
                       ELSE '{}' END`)}) AS words
        FROM broker.customer c
        LEFT JOIN LATERAL (
          SELECT array_agg(${fold(unaccent, 'x.value')}) FILTER (WHERE x.contact_type = 'email') AS emails,
                 array_agg(${phone('x.value')}) FILTER (WHERE x.contact_type <> 'email') AS phones
            FROM broker.contact x
           WHERE x.customer_id = c.id AND x.contact_type IN ('email', 'telefon', 'mobil', 'fax')
        ) k ON true
        LEFT JOIN LATERAL (
          SELECT string_agg(concat_ws(' ', x.street, x.postal_code, x.city), ' ') AS text
            FROM broker.address x WHERE x.customer_id = c.id
        ) a ON true
        CROSS JOIN LATERAL (
          SELECT raw, ${fold(unaccent, 'raw')} AS folded
            FROM concat_ws(' ', c.first_name, c.last_name, c.company_name, c.contact_person, a.text) AS raw
        ) f`;
  }

  /*
   * The methods below are also what the down() of CustomerSearchPriorWord1763700000012 and of
   * CustomerSearchByBroker1763700000013 restore, so they are not private: this migration stays the only place
   * they are written down.
   */

  /** The documents and their word index. */
  async createDocumentTables(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE broker.customer_search (
        customer_id bigint PRIMARY KEY,
        broker_id bigint NOT NULL,
        words tsvector NOT NULL
      )`);
    await db.query(`
      CREATE TABLE broker.customer_search_word (
        word text COLLATE "C" NOT NULL,
        customer_id bigint NOT NULL,
        broker_id bigint NOT NULL
      )`);
  }

  /** What a search query is folded and split with; the documents fold the same way (see `fold`, `words`). */
  async createQueryFunctions(db: QueryRunner, unaccent: string): Promise<void> {
    await db.query(`
      CREATE FUNCTION broker.search_fold(text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
        SELECT ${fold(unaccent, '$1')}
      $$`);
    await db.query(`
      CREATE FUNCTION broker.search_phone(text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
        SELECT ${phone('$1')}
      $$`);
    // A query's terms: a phone number (only digits, blanks and + ( ) / . - and at least 6 digits) as one term;
    // otherwise each whitespace-separated chunk folded like the documents, an e-mail address (a chunk with @)
    // whole, any other chunk split into its words. In order of appearance, without repetitions.
    await db.query(`
      CREATE FUNCTION broker.search_terms(q text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
        SELECT CASE
          WHEN q ~ '^[\\s0-9+()/.-]*$' AND length(regexp_replace(q, '[^0-9]', '', 'g')) >= 6
            THEN ARRAY[broker.search_phone(q)]
          ELSE ARRAY(
            SELECT term FROM (
              SELECT p.term, min(c.chunk_no * 10000 + p.part_no) AS position
                FROM regexp_split_to_table(broker.search_fold(q), '\\s+') WITH ORDINALITY AS c(chunk, chunk_no),
                     unnest(CASE WHEN c.chunk LIKE '%@%'
                                 THEN ARRAY[regexp_replace(c.chunk, '^[^${WORD}]+|[^${WORD}]+$', '', 'g')]
                                 ELSE ${words('c.chunk')} END) WITH ORDINALITY AS p(term, part_no)
               WHERE p.term <> ''
               GROUP BY p.term) t
            ORDER BY position)
        END
      $$`);
  }

  /**
   * Brings the documents of the given customers up to date, and the word index by difference: only the words a
   * customer lost are deleted and only those it gained are inserted (a new address adds its street, postal code
   * and city; the name's words stay), a changed broker rewrites them all. The stored documents are locked first,
   * so two transactions refreshing the same customer take turns; customers gone lose their document and words.
   */
  async createRefresh(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE FUNCTION broker.customer_search_refresh(ids bigint[]) RETURNS void LANGUAGE plpgsql AS $$
      DECLARE
        stored broker.customer_search[];
        fresh broker.customer_search[];
      BEGIN
        IF cardinality(ids) = 0 THEN RETURN; END IF;
        SELECT array_agg(ROW(s.customer_id, s.broker_id, s.words)::broker.customer_search) INTO stored FROM (
          SELECT * FROM broker.customer_search WHERE customer_id = ANY (ids) ORDER BY customer_id FOR UPDATE) s;
        SELECT array_agg(ROW(v.customer_id, v.broker_id, v.words)::broker.customer_search) INTO fresh
          FROM broker.customer_search_source v WHERE v.customer_id = ANY (ids);
        -- Only what differs: (customer, broker, word) triples gone and come.
        WITH old AS (SELECT o.customer_id, o.broker_id, x.word FROM unnest(stored) o, unnest(tsvector_to_array(o.words)) x(word)),
             new AS (SELECT n.customer_id, n.broker_id, x.word FROM unnest(fresh) n, unnest(tsvector_to_array(n.words)) x(word)),
             gone AS (SELECT * FROM old EXCEPT SELECT * FROM new),
             deleted AS (
               DELETE FROM broker.customer_search_word w USING gone g
                WHERE w.word = g.word AND w.customer_id = g.customer_id),
             come AS (SELECT * FROM new EXCEPT SELECT * FROM old),
             inserted AS (
               INSERT INTO broker.customer_search_word (word, customer_id, broker_id)
               SELECT word, customer_id, broker_id FROM come)
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

  /** The bulk path (this migration's backfill, or after a load with the triggers off): fill first, index after. */
  async createRebuild(db: QueryRunner, trgm: string): Promise<void> {
    await db.query(`
      CREATE FUNCTION broker.customer_search_rebuild() RETURNS void LANGUAGE plpgsql
      SET maintenance_work_mem = '256MB' AS $$
      BEGIN
        TRUNCATE broker.customer_search, broker.customer_search_word, broker.customer_search_vocabulary;
        DROP INDEX IF EXISTS broker.customer_search_word_idx;
        DROP INDEX IF EXISTS broker.customer_search_vocabulary_trgm_idx;
        INSERT INTO broker.customer_search SELECT customer_id, broker_id, words FROM broker.customer_search_source;
        INSERT INTO broker.customer_search_word (word, customer_id, broker_id)
        SELECT x.word, s.customer_id, s.broker_id FROM broker.customer_search s, unnest(tsvector_to_array(s.words)) x(word);
        INSERT INTO broker.customer_search_vocabulary (word)
        SELECT DISTINCT word FROM broker.customer_search_word WHERE word !~ '[0-9@]';
        -- broker_id rides along so that visibility is decided in the index: counting needs no table access.
        CREATE INDEX customer_search_word_idx ON broker.customer_search_word (word, customer_id) INCLUDE (broker_id);
        -- New words go straight into the index: a pending list would be read by every search until vacuumed.
        CREATE INDEX customer_search_vocabulary_trgm_idx ON broker.customer_search_vocabulary
          USING gin (word ${trgm}.gin_trgm_ops) WITH (fastupdate = off);
        ANALYZE broker.customer_search;
        ANALYZE broker.customer_search_word;
        ANALYZE broker.customer_search_vocabulary;
      END $$`);
  }

  /** The triggers' functions. */
  async createTriggerFunctions(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE OR REPLACE FUNCTION broker.customer_search_customers_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          PERFORM broker.customer_search_refresh(ARRAY(SELECT id FROM new_rows));
        ELSIF TG_OP = 'UPDATE' THEN
          PERFORM broker.customer_search_refresh(ARRAY(
            SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
             WHERE (n.broker_id, n.first_name, n.last_name, n.company_name, n.contact_person)
                   IS DISTINCT FROM (o.broker_id, o.first_name, o.last_name, o.company_name, o.contact_person)));
        ELSE
          PERFORM broker.customer_search_refresh(ARRAY(SELECT id FROM old_rows));
        END IF;
        RETURN NULL;
      END $$`);
    await db.query(`
      CREATE OR REPLACE FUNCTION broker.customer_search_parts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          PERFORM broker.customer_search_refresh(ARRAY(SELECT DISTINCT customer_id FROM new_rows));
        ELSIF TG_OP = 'UPDATE' THEN
          PERFORM broker.customer_search_refresh(ARRAY(
            SELECT customer_id FROM new_rows UNION SELECT customer_id FROM old_rows));
        ELSE
          PERFORM broker.customer_search_refresh(ARRAY(SELECT DISTINCT customer_id FROM old_rows));
        END IF;
        RETURN NULL;
      END $$`);
  }

  /**
   * Statement-level triggers with transition tables: an import that writes 100,000 customers (or their addresses
   * or contacts) in one statement refreshes their documents in one set-based call. A refresh that changes
   * nothing writes nothing.
   */
  private async createTriggers(db: QueryRunner): Promise<void> {
    await this.createTriggerFunctions(db);
    const triggers: [string, string][] = [
      ['customer', 'broker.customer_search_customers_changed()'],
      ['address', 'broker.customer_search_parts_changed()'],
      ['contact', 'broker.customer_search_parts_changed()'],
    ];
    for (const [table, handler] of triggers) {
      await db.query(`
        CREATE TRIGGER customer_search_inserted AFTER INSERT ON broker.${table}
          REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${handler}`);
      await db.query(`
        CREATE TRIGGER customer_search_updated AFTER UPDATE ON broker.${table}
          REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${handler}`);
      await db.query(`
        CREATE TRIGGER customer_search_deleted AFTER DELETE ON broker.${table}
          REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${handler}`);
    }
  }

  async down(db: QueryRunner): Promise<void> {
    for (const table of ['customer', 'address', 'contact']) {
      for (const event of ['inserted', 'updated', 'deleted'])
        await db.query(`DROP TRIGGER customer_search_${event} ON broker.${table}`);
    }
    await db.query('DROP FUNCTION broker.customer_search_parts_changed()');
    await db.query('DROP FUNCTION broker.customer_search_customers_changed()');
    await db.query('DROP FUNCTION broker.customer_search_rebuild()');
    await db.query('DROP FUNCTION broker.customer_search_refresh(bigint[])');
    await db.query('DROP VIEW broker.customer_search_source');
    await db.query('DROP TABLE broker.customer_search_vocabulary');
    await db.query('DROP TABLE broker.customer_search_word');
    await db.query('DROP TABLE broker.customer_search');
    await db.query('DROP FUNCTION broker.search_terms(text)');
    await db.query('DROP FUNCTION broker.search_phone(text)');
    await db.query('DROP FUNCTION broker.search_fold(text)');
    const created = (await db.query(
      `SELECT extname FROM pg_extension WHERE obj_description(oid, 'pg_extension') = $1`,
      [CREATED_MARKER],
    )) as { extname: string }[];
    for (const { extname } of created) await db.query(`DROP EXTENSION ${extname}`);
  }
}
