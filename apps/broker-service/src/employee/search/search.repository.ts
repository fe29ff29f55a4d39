import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AddressRecord } from '../addresses/address.repository.js';
import type { PersonType } from '@broker/contracts';
import { visibleBrokersCte } from '@broker/inventory';
import type { EmployeeScope } from '../employee-scope.js';

/**
 * Terms this long or longer, without digits or @, also match inside words (Obermüller for müller); all terms match
 * whole words and word beginnings. Shorter fragments occur inside too many words to be useful there: 'mann'
 * inside every Hoffmann and Neumann, 'beck' inside every Lübeck.
 */
export const INSIDE_WORD_TERM_LENGTH = 5;
/** How many index entries a term's size is counted up to: enough to tell a selective term from a broad one. */
const SIZE_PROBE = 5_000;

export interface SearchFilters {
  /** An e-mail address of the customer (case ignored). */
  mail?: string;
  /** The customer's id. */
  id?: string;
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

/** One term of a query, folded, with what the index knows about it. */
export interface SearchTerm {
  term: string;
  /** Whether some customer (of any broker) has the term as a whole word. */
  whole: boolean;
  /** Index entries of words beginning with the term, counted up to SIZE_PROBE: the most selective term. */
  size: number;
}

type Row = Omit<SearchHitRecord, 'id'> & { total: number; id: string | null };

const ID = /^[1-9][0-9]{0,17}$/;

/** LIKE's wildcards and escape character taken literally. */
const literal = (term: string) => term.replace(/[\\%_]/g, (character) => `\\${character}`);

/**
 * The search over the inverted index of migration CustomerSearch1763700000008. A term matches a customer word
 * that equals it (rank 1) or begins with it (rank 2) and, for terms of five or more characters without digits
 * or @, a word holding it inside (rank 3; those words come from the trigram-indexed vocabulary). Every term must
 * match; a customer ranks by its worst term. The customer whose id the query is comes first (rank 0); the id
 * breaks ties. Only customers of the scope's broker and the brokers below it are hits, and only they are
 * counted; the broker is part of each index entry, so finding and counting read the index only.
 */
@Injectable()
export class SearchRepository {
  /**
   * The terms of `q`, folded like the search documents (by the database, so both sides fold alike), each with
   * whether it is anybody's whole word and, for a query of several terms, a capped count of its index entries.
   */
  async terms(db: EntityManager, q: string): Promise<SearchTerm[]> {
    return db.query<SearchTerm[]>(
      `WITH q AS (SELECT broker.search_terms($1) AS terms)
       SELECT t.term, EXISTS (SELECT 1 FROM broker.customer_search_word w WHERE w.word = t.term) AS whole,
              -- only a query of several terms needs to know which one is the most selective
              CASE WHEN cardinality(q.terms) > 1 THEN (
                SELECT count(*) FROM (
                  SELECT 1 FROM broker.customer_search_word w
                   WHERE w.word >= t.term AND w.word <= t.term || chr(1114111) LIMIT ${SIZE_PROBE}) b)::int
              ELSE 0 END AS size
         FROM q, unnest(q.terms) WITH ORDINALITY AS t(term, position)
        ORDER BY t.position`,
      [q],
    );
  }

  async search(
    db: EntityManager,
    scope: EmployeeScope,
    terms: SearchTerm[],
    filters: SearchFilters,
    page: { from: number; size: number },
  ): Promise<{ total: number; hits: SearchHitRecord[] }> {
    const sql = new SqlBuilder([scope.tenantId, scope.brokerId]);
    const filter = (column: string) => {
      const conditions: string[] = [];
      if (filters.id !== undefined) conditions.push(`${column} = ${sql.param(filters.id)}::bigint`);
      if (filters.mail !== undefined)
        conditions.push(`${column} IN (
          SELECT k.customer_id FROM broker.contact k
           WHERE k.tenant_id = $1 AND lower(k.value) = lower(${sql.param(filters.mail.trim())})
             AND k.contact_type = 'email')`);
      return conditions.map((condition) => ` AND ${condition}`).join('');
    };
    const hits =
      terms.length === 1 ? oneTerm(sql, terms[0], filter, page) : severalTerms(sql, terms, filter, page);
    const rows = await db.query<Row[]>(
      `WITH RECURSIVE ${visibleBrokersCte(1, 2)}, ${sql.ctes.join(', ')}
       SELECT t.total, c.id::text AS id, c.salutation, c.person_type AS "personType", c.title,
              c.first_name AS "firstName", c.last_name AS "lastName", c.birth_date::text AS "birthDate",
              c.company_name AS "companyName", c.contact_person AS "contactPerson",
              c.founding_date::text AS "foundingDate",
              CASE WHEN a.customer_id IS NOT NULL THEN json_build_object(
                'type', a.address_type, 'addition', a.addition, 'street', a.street,
                'postalCode', a.postal_code, 'city', a.city, 'country', a.country) END AS "mainResidence"
         FROM (SELECT (${hits.total})::int AS total) t
         LEFT JOIN ((${hits.page}) p
                    JOIN broker.customer c ON c.id = p.customer_id
                    LEFT JOIN broker.address a ON a.customer_id = c.id AND a.address_no = 0) ON true
        ORDER BY p.rank, p.customer_id`,
      sql.params,
    );
    const total = rows[0]?.total ?? 0;
    const found = rows.filter((row): row is Row & { id: string } => row.id !== null);
    return { total, hits: found.map(({ total: _total, ...hit }) => hit) };
  }
}

/** Parameters and common table expressions of the statement being built. */
class SqlBuilder {
  readonly ctes: string[] = [];

  constructor(readonly params: unknown[]) {}

  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }
}

/** The conditions of the POST form's filters on a customer id column (empty without filters). */
type Filter = (column: string) => string;

interface HitQueries {
  /** An expression: the number of hits. */
  total: string;
  /** A query: (customer_id, rank) of the requested page. */
  page: string;
}

/** Visibility is decided on the index entries: their broker must be the scope's or one below it. */
const visible = (alias: string) => `${alias}.broker_id = ANY (ARRAY(SELECT id FROM visible_broker))`;

/**
 * The vocabulary words holding the term inside (not at their beginning), as an array, for terms long enough and
 * without digits or @; undefined for other terms. The pattern is a parameter, so the planner uses the trigram
 * index.
 */
function insideWords(sql: SqlBuilder, term: string, beginning: string): string | undefined {
  if (/[0-9@]/.test(term) || [...term].length < INSIDE_WORD_TERM_LENGTH) return undefined;
  return `ARRAY(SELECT v.word FROM broker.customer_search_vocabulary v
                 WHERE v.word LIKE ${sql.param(`%${literal(term)}%`)} AND v.word NOT LIKE ${beginning})`;
}

/** (customer_id, rank) of every index entry matching the term: 1 whole word, 2 beginning, 3 inside. */
function termMatches(sql: SqlBuilder, { term }: SearchTerm, restriction = ''): string {
  const beginning = sql.param(`${literal(term)}%`);
  const words = [
    `SELECT w.customer_id, CASE WHEN w.word = ${sql.param(term)} THEN 1 ELSE 2 END AS rank
       FROM broker.customer_search_word w
      WHERE w.word LIKE ${beginning} AND ${visible('w')}${restriction}`,
  ];
  const inside = insideWords(sql, term, beginning);
  if (inside)
    words.push(`SELECT w.customer_id, 3 FROM broker.customer_search_word w
      WHERE w.word = ANY (${inside}) AND ${visible('w')}${restriction}`);
  return words.join(' UNION ALL ');
}

/**
 * One term, the usual case. The customers having the term as a whole word are one index range with one entry
 * per customer in id order: counted without grouping, their first page read without sorting. Only the others
 * (a longer word beginning with the term, or one holding it inside) are grouped per customer, less the
 * whole-word hits.
 */
function oneTerm(
  sql: SqlBuilder,
  term: SearchTerm,
  filter: Filter,
  page: { from: number; size: number },
): HitQueries {
  const whole = sql.param(term.term);
  const beginning = sql.param(`${literal(term.term)}%`);
  const others = [
    `SELECT w.customer_id, 2 AS rank FROM broker.customer_search_word w
      WHERE w.word > ${whole} AND w.word LIKE ${beginning} AND ${visible('w')}`,
  ];
  const inside = insideWords(sql, term.term, beginning);
  if (inside)
    others.push(`SELECT w.customer_id, 3 FROM broker.customer_search_word w
      WHERE w.word = ANY (${inside}) AND ${visible('w')}`);
  const wholeHits = term.whole
    ? `FROM broker.customer_search_word w WHERE w.word = ${whole} AND ${visible('w')}${filter('w.customer_id')}`
    : undefined;
  sql.ctes.push(`others AS MATERIALIZED (
    SELECT o.customer_id, min(o.rank) AS rank FROM (${others.join(' UNION ALL ')}) o
     WHERE true ${filter('o.customer_id')}
       ${wholeHits ? `AND NOT EXISTS (SELECT 1 FROM broker.customer_search_word e WHERE e.word = ${whole} AND e.customer_id = o.customer_id)` : ''}
     GROUP BY o.customer_id)`);
  const othersPage = 'SELECT customer_id, rank FROM others';
  if (!wholeHits)
    return {
      total: 'SELECT count(*) FROM others',
      page: `${othersPage} ORDER BY rank, customer_id LIMIT ${sql.param(page.size)} OFFSET ${sql.param(page.from)}`,
    };
  // The customer whose id the query is comes first.
  const wholeRank = ID.test(term.term) ? `CASE WHEN w.customer_id = ${whole}::bigint THEN 0 ELSE 1 END` : '1';
  const upTo = sql.param(page.from + page.size);
  return {
    total: `(SELECT count(*) ${wholeHits}) + (SELECT count(*) FROM others)`,
    page: `SELECT customer_id, rank FROM (
             (SELECT w.customer_id, ${wholeRank} AS rank ${wholeHits} ORDER BY 2, 1 LIMIT ${upTo})
             UNION ALL
             (${othersPage} ORDER BY rank, customer_id LIMIT ${upTo})) u
           ORDER BY rank, customer_id LIMIT ${sql.param(page.size)} OFFSET ${sql.param(page.from)}`,
  };
}

/**
 * Several terms: the most selective term is matched first; the others only among its customers (a hash semi
 * join over their index ranges), so grouping per customer stays small. A customer matches a term through its
 * best word and the query through its worst term.
 */
function severalTerms(
  sql: SqlBuilder,
  terms: SearchTerm[],
  filter: Filter,
  page: { from: number; size: number },
): HitQueries {
  const [driver, ...rest] = [...terms].sort((a, b) => a.size - b.size);
  sql.ctes.push(`driver AS MATERIALIZED (
    SELECT customer_id, min(rank) AS rank FROM (${termMatches(sql, driver)}) m
     WHERE true ${filter('m.customer_id')}
     GROUP BY customer_id)`);
  const restricted = rest.map(
    (term) => `SELECT customer_id, min(rank) AS rank FROM (
      ${termMatches(sql, term, ' AND w.customer_id IN (SELECT customer_id FROM driver)')}) m GROUP BY customer_id`,
  );
  sql.ctes.push(`hits AS MATERIALIZED (
    SELECT customer_id, max(rank) AS rank FROM (
      SELECT customer_id, rank FROM driver UNION ALL ${restricted.join(' UNION ALL ')}) m
     GROUP BY customer_id HAVING count(*) = ${terms.length})`);
  return {
    total: 'SELECT count(*) FROM hits',
    page: `SELECT customer_id, rank FROM hits ORDER BY rank, customer_id
            LIMIT ${sql.param(page.size)} OFFSET ${sql.param(page.from)}`,
  };
}
