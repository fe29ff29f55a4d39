import { createHash } from 'node:crypto';
import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { genericPlanPool, type PreparedStatement, runPrepared } from '@broker/db';
import { type PersonType, SEARCH_MAX_TERMS } from '@broker/contracts';
import { visibleBrokersCte } from '@broker/inventory';
import type { AddressRecord } from '../addresses/address.repository.js';
import type { EmployeeScope } from '../employee-scope.js';

/**
 * Terms this long or longer, made of letters only, also match inside words (Obermüller for müller); all terms
 * match whole words and word beginnings. Shorter fragments occur inside too many words to be useful there: 'mann'
 * inside every Hoffmann and Neumann, 'beck' inside every Lübeck.
 */
export const INSIDE_WORD_TERM_LENGTH = 5;
/**
 * The letters of folded words (the word characters of migration CustomerSearch1763700000008 but digits), of
 * which the vocabulary's words consist. A term of other characters (an e-mail address's `_` or `.`) is in no
 * vocabulary word, and could hold LIKE's wildcards.
 */
const LETTERS = 'a-z\\u00c0-\\uffff';
/** How many index entries a term's size is counted up to: enough to tell a selective term from a broad one. */
const SIZE_PROBE = 5_000;
/**
 * Up to this many customers of a query's most selective term, its other terms are checked on their search
 * documents (one per customer); beyond, the other terms' index ranges are read.
 */
const CHECKED_ON_DOCUMENTS = 500;
/** Searches at once in PostgreSQL; further ones wait for a connection. */
const SEARCH_CONNECTIONS = 4;

export interface SearchFilters {
  /** An e-mail address of the customer (case ignored). */
  mail?: string;
  /** The customer's id. */
  id?: string;
}

export interface SearchPage {
  from: number;
  size: number;
}

export interface SearchHitRecord {
  id: string;
  salutation: string | null;
  personType: PersonType;
  title: string | null;
  firstName: string | null;
  lastName: string | null;
  birthDate: string | null;
  companyName: string | null;
  contactPerson: string | null;
  foundingDate: string | null;
  /** Address 0, or null when the customer has no main residence. */
  mainResidence: Omit<AddressRecord, 'addressNo'> | null;
}

export interface FoundCustomers {
  total: number;
  hits: SearchHitRecord[];
}

/** One term of a query, folded, with what the index knows about it. */
export interface SearchTerm {
  term: string;
  /** For a query of several terms: index entries of words beginning with the term, counted up to SIZE_PROBE. */
  size: number;
}

/** A customer of the page (none: id null) with the total and how many terms the statement searched for. */
type HitRow = Omit<SearchHitRecord, 'id'> & { id: string | null; total: number; terms: number };

/** A query that is not one term reads its terms first; the statement's text never changes. */
const READ_TERMS: PreparedStatement = {
  name: 'svc-search-terms',
  text: `WITH q AS (SELECT broker.search_terms($1) AS terms)
         SELECT t.term,
                CASE WHEN cardinality(q.terms) BETWEEN 2 AND ${SEARCH_MAX_TERMS} THEN (
                  SELECT count(*) FROM (
                    SELECT FROM broker.customer_search_word w
                     WHERE w.word >= t.term AND w.word < broker.search_prefix_end(t.term) LIMIT ${SIZE_PROBE}) b)::int
                ELSE 0 END AS size
           FROM q, unnest(q.terms) WITH ORDINALITY AS t(term, position)
          ORDER BY t.position`,
};

/** A customer id as a query term: the customer with this id ranks first. */
const ID = /^[1-9][0-9]{0,17}$/;

const ONLY_LETTERS = new RegExp(`^[${LETTERS}]+$`);
/** Whether a term also matches inside words: long enough, letters only (the one-term statement decides it in SQL). */
const matchesInside = (term: string) =>
  ONLY_LETTERS.test(term) && [...term].length >= INSIDE_WORD_TERM_LENGTH;

/**
 * The search over the inverted index of migration CustomerSearch1763700000008 (with the prior words of
 * CustomerSearchPriorWord1763700000012). A term matches a customer word that equals it (rank 1) or begins with it
 * (rank 2) and, for terms of five or more letters (no digits, no @), a word holding it inside (rank 3;
 * those words come from the trigram-indexed vocabulary). Every term must match; a customer ranks by its worst
 * term. The customer whose id a one-term query is comes first (rank 0); the id breaks ties. Only customers of the
 * scope's broker and the brokers below it are hits, and only they are counted; the broker is part of each index
 * entry, so finding and counting read the index only.
 *
 * The words beginning with a term are one index range, in which a customer's first entry is the one whose prior
 * word sorts before the term: taking only those, the customers of a range are counted without grouping. Only
 * hits inside words (from other ranges) need to be made distinct.
 *
 * The terms and the one-term search run prepared on connections that plan a statement once for all values
 * (`genericPlanPool`): their plans follow from their text (one per combination of filters), the index does the
 * rest, and planning a search anew cost about as much as running it (0.5-1 ms of 1-4 ms). A search of several
 * terms, whose text differs by the kinds of its terms (2^n texts for n terms, each plan a megabyte that a
 * connection would keep), runs unprepared on the service's pool, planned for its values.
 */
@Injectable()
export class SearchRepository implements OnApplicationShutdown {
  private readonly connections: Pool;

  constructor(private readonly db: DataSource) {
    this.connections = genericPlanPool(db, SEARCH_CONNECTIONS, 'search');
  }

  async onApplicationShutdown(): Promise<void> {
    await this.connections.end();
  }

  /**
   * The terms of `q`, folded like the search documents (by the database, so both sides fold alike), and for a
   * query of several terms (not too many) a capped count of each one's index entries.
   */
  async terms(q: string): Promise<SearchTerm[]> {
    return runPrepared<SearchTerm>(this.connections, READ_TERMS, [q]);
  }

  /**
   * The hits of `q` if it is one term (the statement folds it and reads what it needs to know of it itself, so
   * a search of one term is one round trip); undefined when `q` is not one term.
   */
  async oneTermSearch(
    scope: EmployeeScope,
    q: string,
    filters: SearchFilters,
    page: SearchPage,
  ): Promise<FoundCustomers | undefined> {
    const sql = new SqlBuilder(scope, filters);
    const text = statementText(oneTerm(sql, q, page));
    const rows = await runPrepared<HitRow>(this.connections, { name: statementName(text), text }, sql.params);
    return rows[0]?.terms === 1 ? found(rows) : undefined;
  }

  /** The hits of several terms as `terms` read them. */
  async severalTermSearch(
    scope: EmployeeScope,
    terms: SearchTerm[],
    filters: SearchFilters,
    page: SearchPage,
  ): Promise<FoundCustomers> {
    const sql = new SqlBuilder(scope, filters);
    return found(await this.db.query<HitRow[]>(statementText(severalTerms(sql, terms, page)), sql.params));
  }
}

/** The search statement: the customers of the page, each with the total and the number of terms searched for. */
function statementText(hits: HitQueries): string {
  return `WITH RECURSIVE ${[visibleBrokersCte(1, 2), ...hits.ctes].join(',\n')}
       SELECT t.total, t.terms, c.id::text AS id, c.salutation, c.person_type AS "personType", c.title,
              c.first_name AS "firstName", c.last_name AS "lastName", c.birth_date::text AS "birthDate",
              c.company_name AS "companyName", c.contact_person AS "contactPerson",
              c.founding_date::text AS "foundingDate",
              CASE WHEN a.customer_id IS NOT NULL THEN json_build_object(
                'type', a.address_type, 'addition', a.addition, 'street', a.street,
                'postalCode', a.postal_code, 'city', a.city, 'country', a.country) END AS "mainResidence"
         FROM (SELECT (${hits.total})::int AS total, (${hits.terms})::int AS terms) t
         LEFT JOIN (page p
                    JOIN broker.customer c ON c.id = p.customer_id
                    LEFT JOIN broker.address a ON a.customer_id = c.id AND a.address_no = 0) ON true
        ORDER BY p.rank, p.customer_id`;
}

function found(rows: HitRow[]): FoundCustomers {
  const hits = rows.filter((row): row is HitRow & { id: string } => row.id !== null);
  return { total: rows[0]?.total ?? 0, hits: hits.map(({ total: _total, terms: _terms, ...hit }) => hit) };
}

/** One name per text of a prepared search statement (a few: one per combination of filters), hashed once. */
const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `svc-search-${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    statementNames.set(text, name);
  }
  return name;
}

/** The common table expressions of a search (the last one `page`: customer_id and rank) and its total. */
interface HitQueries {
  ctes: string[];
  /** An expression: the number of hits. */
  total: string;
  /** An expression: the number of terms searched for. */
  terms: string;
}

/** Parameters, the scope's visibility and the POST form's filters of the statement being built. */
class SqlBuilder {
  readonly params: unknown[];
  private readonly conditions: string[] = [];

  constructor(scope: EmployeeScope, filters: SearchFilters) {
    this.params = [scope.tenantId, scope.brokerId];
    if (filters.id !== undefined) this.conditions.push(`= ${this.param(filters.id)}::bigint`);
    if (filters.mail !== undefined)
      this.conditions.push(`IN (
        SELECT k.customer_id FROM broker.contact k
         WHERE k.tenant_id = $1 AND lower(k.value) = lower(${this.param(filters.mail.trim())})
           AND k.contact_type = 'email')`);
  }

  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  /** The conditions an index entry (`alias`) must meet: a visible broker and the filters. */
  entryConditions(alias: string): string {
    const filters = this.conditions.map((condition) => ` AND ${alias}.customer_id ${condition}`).join('');
    return `${alias}.broker_id = ANY (ARRAY(SELECT id FROM visible_broker))${filters}`;
  }
}

/** The condition on index entries `w` of words beginning with `term` (an expression): one per customer, its first. */
const firstWords = (term: string) =>
  `w.word >= ${term} AND w.word < broker.search_prefix_end(${term}) AND w.prior < ${term}`;

/**
 * The words holding `term` (an expression) inside, from the vocabulary; the pattern is one, so its index is used.
 * Such a term consists of letters (see `matchesInside`), so it holds none of LIKE's wildcards.
 */
const insideWords = (term: string) =>
  `ARRAY(SELECT v.word FROM broker.customer_search_vocabulary v
          WHERE v.word LIKE '%' || ${term} || '%' AND NOT starts_with(v.word, ${term}))`;

/**
 * One term, the usual case, folded from `q` by the statement (`term`), which also finds out what decides the way
 * to search it: whether it is somebody's whole word, and whether it matches inside words (`matchesInside`). Each
 * way is a part of the statement behind a condition on those, and only the parts of the term's way run.
 *
 * Its first words (`firstWords`) give each customer with a word that is or begins with the term once, so they
 * are counted without grouping. Customers with the whole word come first, in index order (the customer whose id
 * the term is before them): for a term that is somebody's whole word the page reads them directly and the rest
 * of the range only when they do not fill it, and the total reads the range once more; for a term that is
 * nobody's whole word the range is read once, into `first_words`. A term that matches inside words also finds
 * those customers (`inside_words`): the total adds the ones not among the first words, and the page goes on with
 * them only when the first words do not fill it.
 */
function oneTerm(sql: SqlBuilder, q: string, page: SearchPage): HitQueries {
  const term = '(SELECT value FROM term)';
  const [whole, inside] = ['(SELECT whole FROM term)', '(SELECT inside FROM term)'];
  const upTo = sql.param(page.from + page.size);
  const range = `SELECT w.customer_id FROM broker.customer_search_word w
                  WHERE ${firstWords(term)} AND ${sql.entryConditions('w')}`;
  const wholeWords = `FROM broker.customer_search_word w WHERE w.word = ${term} AND ${sql.entryConditions('w')}`;
  const total = (first: string) => `CASE WHEN ${inside}
    THEN (SELECT count(*) - count(*) FILTER (WHERE customer_id IN (SELECT customer_id FROM inside_words))
            FROM (${first}) f)
         + (SELECT count(DISTINCT customer_id) FROM inside_words)
    ELSE (SELECT count(*) FROM (${first}) f) END`;
  const pages = [
    `SELECT w.customer_id, 0 AS rank ${wholeWords} AND w.customer_id = (SELECT id FROM term)`,
    `SELECT w.customer_id, 1 ${wholeWords} AND w.customer_id IS DISTINCT FROM (SELECT id FROM term)
      ORDER BY 1 LIMIT ${upTo}`,
    `SELECT w.customer_id, 2 FROM broker.customer_search_word w
      WHERE ${whole} AND w.word > ${term} AND ${firstWords(term)} AND ${sql.entryConditions('w')}
        AND ${fewer(`SELECT ${wholeWords}`, upTo)}
      ORDER BY 1 LIMIT ${upTo}`,
    `SELECT customer_id, 2 FROM first_words WHERE NOT ${whole} ORDER BY 1 LIMIT ${upTo}`,
    `SELECT customer_id, 3 FROM inside_words
      WHERE ${inside} AND ${fewer(range, upTo)} AND customer_id NOT IN (${range})
      GROUP BY customer_id ORDER BY 1 LIMIT ${upTo}`,
  ];
  const ctes = [
    `term AS MATERIALIZED (
      SELECT t.value, t.count,
             EXISTS (SELECT FROM broker.customer_search_word w WHERE w.word = t.value) AS whole,
             coalesce(char_length(t.value) >= ${INSIDE_WORD_TERM_LENGTH} AND t.value ~ '^[${LETTERS}]+$', false)
               AS inside,
             CASE WHEN t.value ~ '${ID.source}' THEN t.value::bigint END AS id
        FROM (SELECT CASE WHEN cardinality(terms) = 1 THEN terms[1] END AS value, cardinality(terms) AS count
                FROM broker.search_terms(${sql.param(q)}) AS terms) t)`,
    `first_words AS MATERIALIZED (${range})`,
    `inside_words AS MATERIALIZED (
      SELECT w.customer_id FROM broker.customer_search_word w
       WHERE ${inside} AND w.word = ANY (${insideWords(term)}) AND ${sql.entryConditions('w')})`,
    `page AS (
      SELECT * FROM (${pages.map((part) => `(${part})`).join(' UNION ALL ')}) p
       ORDER BY rank, customer_id LIMIT ${sql.param(page.size)} OFFSET ${sql.param(page.from)})`,
  ];
  return {
    ctes,
    total: `CASE WHEN ${whole} THEN ${total(range)} ELSE ${total('SELECT customer_id FROM first_words')} END`,
    terms: '(SELECT count FROM term)',
  };
}

/** Whether `rows` (a query) has fewer than `limit` rows, reading at most that many. */
const fewer = (rows: string, limit: string) => `(SELECT count(*) FROM (${rows} LIMIT ${limit}) r) < ${limit}`;

/** (customer_id, rank) of every customer matching `term`, once per customer: 1 whole word, 2 beginning, 3 inside. */
function termMatches(sql: SqlBuilder, term: string): string {
  const value = sql.param(term);
  const first = `SELECT w.customer_id, CASE WHEN w.word = ${value} THEN 1 ELSE 2 END AS rank
    FROM broker.customer_search_word w WHERE ${firstWords(value)} AND ${sql.entryConditions('w')}`;
  if (!matchesInside(term)) return first;
  const inside = `SELECT w.customer_id, 3 FROM broker.customer_search_word w
   WHERE w.word = ANY (${insideWords(value)}) AND ${sql.entryConditions('w')}`;
  return `SELECT customer_id, min(rank) AS rank FROM (${first} UNION ALL ${inside}) m GROUP BY customer_id`;
}

/**
 * A customer's rank for `term` from its search document (null when no word matches), as `termMatches` ranks it:
 * whole word, word beginning, or (for eligible terms) inside a word of the vocabulary (no digits or @).
 */
function documentRank(sql: SqlBuilder, term: string): string {
  const value = sql.param(term);
  const inside = matchesInside(term) ? `WHEN x.word !~ '[0-9@]' AND strpos(x.word, ${value}) > 0 THEN 3` : '';
  return `(SELECT min(CASE WHEN x.word = ${value} THEN 1 WHEN starts_with(x.word, ${value}) THEN 2 ${inside} END)
             FROM unnest(tsvector_to_array(s.words)) AS x(word))`;
}

/**
 * Several terms: the most selective term is matched first. When it has few customers, the other terms are checked
 * on their search documents; otherwise every term's customers are read from the index and grouped, a customer
 * being a hit when all terms found it. A customer matches a term through its best word and the query through its
 * worst term.
 */
function severalTerms(sql: SqlBuilder, terms: SearchTerm[], page: SearchPage): HitQueries {
  const [driver, ...rest] = [...terms].sort((a, b) => a.size - b.size);
  const ranks = rest.map((term) => documentRank(sql, term.term));
  const others = rest.map((term) => termMatches(sql, term.term));
  const checked = `(SELECT count(*) FROM driver) <= ${CHECKED_ON_DOCUMENTS}`;
  const ctes = [
    `driver AS MATERIALIZED (${termMatches(sql, driver.term)})`,
    `hits AS MATERIALIZED (
      SELECT customer_id, greatest(${ranks.map((_rank, index) => `r${index}`).join(', ')}, rank) AS rank FROM (
        SELECT d.customer_id, d.rank, ${ranks.map((rank, index) => `${rank} AS r${index}`).join(', ')}
          FROM driver d JOIN broker.customer_search s ON s.customer_id = d.customer_id
         WHERE ${checked}) m
       WHERE ${ranks.map((_rank, index) => `r${index} IS NOT NULL`).join(' AND ')}
      UNION ALL
      SELECT customer_id, max(rank) FROM (
        SELECT customer_id, rank FROM driver UNION ALL ${others.join(' UNION ALL ')}) m
       WHERE NOT ${checked}
       GROUP BY customer_id HAVING count(*) = ${terms.length})`,
    `page AS (
      SELECT customer_id, rank FROM hits ORDER BY rank, customer_id
       LIMIT ${sql.param(page.size)} OFFSET ${sql.param(page.from)})`,
  ];
  return { ctes, total: 'SELECT count(*) FROM hits', terms: String(terms.length) };
}
