import type { Client } from 'pg';

/**
 * What searchKunden's X-Svc-Total must be, counted from the inventory tables alone (customer, address, contact,
 * broker), never from the search index, whatever shape that has. The rules of apps/broker-service/README.md,
 * "Search", for queries of letters only (names, streets, cities): `q` and the customers' words folded alike
 * (ä → ae, ö → oe, ü → ue, ß → ss, other accents removed, lower case) and split at anything but letters and
 * digits; a customer's words are those of its names, company, contact person, and the street, postal code and
 * city of each address, also spelled without the umlauts' dots, and each e-mail address whole. A term matches a
 * word it begins; a term of five or more letters also a word of letters that holds it, unless more than 500 words
 * of the vocabulary (the words of letters of every customer in the database) hold it without beginning with it.
 * Every term must match. Phone numbers and the id are left out: no term of letters matches them.
 */

/** The search's MAX_INSIDE_WORDS: a term inside more vocabulary words than this matches no word inside. */
const MAX_INSIDE_WORDS = 500;

/** The broker and the brokers below it. */
export const visibleBrokers = (brokerParameter: string) => `visible(id) AS (
    SELECT ${brokerParameter}::bigint
    UNION ALL SELECT b.id FROM broker.broker b JOIN visible v ON b.parent_id = v.id)`;

const WORD_SEPARATOR = "'[^0-9a-z\\u00c0-\\uffff]+'";

/** Folding as the search does it, with the unaccent extension in `schema`. */
function fold(schema: string, text: string): string {
  const umlauts = ['ä:ae', 'ö:oe', 'ü:ue', 'Ä:Ae', 'Ö:Oe', 'Ü:Ue', 'ß:ss', 'ẞ:SS']
    .map((pair) => pair.split(':'))
    .reduce((inner, [from, to]) => `replace(${inner}, '${from}', '${to}')`, text);
  return `lower(${schema}.unaccent(${umlauts}))`;
}

/** The folded words of `text`, one row each. */
const wordsOf = (unaccent: string, text: string) =>
  `regexp_split_to_table(${fold(unaccent, text)}, ${WORD_SEPARATOR})`;

/**
 * The vocabulary as the inventory defines it, a temporary table of the session: every word of letters of every
 * customer's names and addresses (also without the umlauts' dots), whichever tenant and broker.
 */
function vocabularyStatement(unaccent: string): string {
  return `CREATE TEMP TABLE reference_vocabulary AS
    WITH texts(raw) AS (
      SELECT concat_ws(' ', first_name, last_name, company_name, contact_person) FROM broker.customer
      UNION ALL
      SELECT concat_ws(' ', street, postal_code, city) FROM broker.address)
    SELECT DISTINCT word FROM (
      SELECT ${wordsOf(unaccent, 'raw')} AS word FROM texts
      UNION ALL
      SELECT ${wordsOf(unaccent, "translate(raw, 'äöüÄÖÜ', 'aouAOU')")} FROM texts WHERE raw ~ '[äöüÄÖÜ]') w
     WHERE word <> '' AND word !~ '[0-9@]'`;
}

/**
 * The statement: $1 the caller's broker, $2 the queries; one row per query with the customers it finds. A term's
 * word beginnings are found by equality with the words' beginnings of the terms' lengths (a hash join, not a
 * comparison of every term with every word).
 */
function countStatement(unaccent: string): string {
  const words = (text: string) => wordsOf(unaccent, text);
  return `WITH RECURSIVE ${visibleBrokers('$1')},
    customers AS (SELECT c.* FROM broker.customer c WHERE c.broker_id IN (SELECT id FROM visible)),
    texts(customer_id, raw) AS (
      SELECT id, concat_ws(' ', first_name, last_name, company_name, contact_person) FROM customers
      UNION ALL
      SELECT a.customer_id, concat_ws(' ', a.street, a.postal_code, a.city)
        FROM broker.address a JOIN customers c ON c.id = a.customer_id),
    words(customer_id, word) AS MATERIALIZED (
      SELECT customer_id, word FROM texts, ${words('raw')} AS word
      UNION ALL
      SELECT customer_id, word FROM texts, ${words("translate(raw, 'äöüÄÖÜ', 'aouAOU')")} AS word
       WHERE raw ~ '[äöüÄÖÜ]'
      UNION ALL
      SELECT k.customer_id, ${fold(unaccent, 'k.value')}
        FROM broker.contact k JOIN customers c ON c.id = k.customer_id WHERE k.contact_type = 'email'),
    vocabulary(word, letters) AS (SELECT DISTINCT word, word !~ '[0-9@]' FROM words WHERE word <> ''),
    split(q, term) AS (SELECT DISTINCT q, term FROM unnest($2::text[]) AS q, ${words('q')} AS term WHERE term <> ''),
    terms(q, term, inside) AS (
      SELECT q, term, length(term) >= 5 AND term ~ '^[a-z\\u00c0-\\uffff]+$'
                      AND (SELECT count(*) FROM (SELECT FROM pg_temp.reference_vocabulary r
                                                  WHERE strpos(r.word, term) > 0 AND NOT starts_with(r.word, term)
                                                  LIMIT ${MAX_INSIDE_WORDS + 1}) held) <= ${MAX_INSIDE_WORDS}
        FROM split),
    sizes(size) AS (SELECT DISTINCT length(term) FROM terms),
    term_words(q, term, word) AS (
      SELECT t.q, t.term, v.word FROM vocabulary v CROSS JOIN sizes JOIN terms t ON t.term = left(v.word, sizes.size)
      UNION ALL
      SELECT t.q, t.term, v.word FROM terms t JOIN vocabulary v
          ON t.inside AND v.letters AND strpos(v.word, t.term) > 0),
    needed(q, terms) AS (SELECT q, count(*) FROM terms GROUP BY q),
    matched(q, customer_id, terms) AS (
      SELECT m.q, w.customer_id, count(DISTINCT m.term) FROM term_words m JOIN words w ON w.word = m.word
       GROUP BY m.q, w.customer_id)
    SELECT queries.q, count(m.customer_id)::int AS count
      FROM unnest($2::text[]) AS queries(q) JOIN needed n ON n.q = queries.q
      LEFT JOIN matched m ON m.q = queries.q AND m.terms = n.terms
     GROUP BY queries.q`;
}

async function unaccentSchema(db: Client): Promise<string> {
  const { rows } = await db.query<{ schema: string }>(
    `SELECT quote_ident(n.nspname) AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
      WHERE e.extname = 'unaccent'`,
  );
  return rows[0]?.schema ?? 'public';
}

/**
 * (Re)builds the session's vocabulary that referenceTotals reads, from the inventory as it is now: once after the
 * inventory changed, before counting.
 */
export async function buildReferenceVocabulary(db: Client): Promise<void> {
  const unaccent = await unaccentSchema(db);
  await db.query('BEGIN');
  try {
    await db.query('SET LOCAL jit = off');
    await db.query('DROP TABLE IF EXISTS pg_temp.reference_vocabulary');
    await db.query(vocabularyStatement(unaccent));
  } finally {
    await db.query('COMMIT');
  }
}

/**
 * X-Svc-Total of each query for an API client of the broker `brokerId`, counted from the inventory tables and the
 * session's vocabulary (buildReferenceVocabulary).
 */
export async function referenceTotals(
  db: Client,
  brokerId: string,
  queries: string[],
): Promise<Map<string, number>> {
  const notLetters = queries.find((q) => /[0-9@]/.test(q));
  if (notLetters !== undefined)
    throw new Error(`referenceTotals counts queries of letters only, not ${notLetters}`);
  const unaccent = await unaccentSchema(db);
  // Without JIT: compiling the folding expressions took seconds (2.4 of 2.7 s for 200 queries at 100,000
  // customers), more than the count itself.
  await db.query('BEGIN');
  try {
    await db.query('SET LOCAL jit = off');
    const { rows } = await db.query<{ q: string; count: number }>(countStatement(unaccent), [
      brokerId,
      queries,
    ]);
    return new Map(rows.map((row) => [row.q, row.count]));
  } finally {
    await db.query('COMMIT');
  }
}
