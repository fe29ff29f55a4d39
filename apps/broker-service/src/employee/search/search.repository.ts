import { createHash } from 'node:crypto';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { genericPlanPool, runPrepared } from '@broker/db';
import { type PersonType, SEARCH_MAX_TERMS } from '@broker/contracts';
import type { AddressRecord } from '../addresses/address.repository.js';
import type { EmployeeScope } from '../employee-scope.js';
import { SEARCH_CONNECTIONS } from './search-connections.js';

/**
 * Terms this long or longer, made of letters only, also match inside words (Obermüller for müller); all terms
 * match whole words and word beginnings. Shorter fragments occur inside too many words to be useful there: 'mann'
 * inside every Hoffmann and Neumann, 'beck' inside every Lübeck.
 */
export const INSIDE_WORD_TERM_LENGTH = 5;
/**
 * A term that lies inside more words of the vocabulary than this matches whole words and word beginnings only:
 * each such word is one more key to look up for every search with the term (`strasse` inside every street name).
 */
const MAX_INSIDE_WORDS = 500;
/**
 * The letters of folded words (the word characters of migration CustomerSearch1763700000008 but digits), of
 * which the vocabulary's words consist. A term of other characters (an e-mail address's `_` or `.`) is in no
 * vocabulary word, and could hold LIKE's wildcards.
 */
const LETTERS = 'a-z\\u00c0-\\uffff';
/** A customer id as a query term: the customer with this id ranks first. */
const ID = '^[1-9][0-9]{0,17}$';

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
  /** How many terms q holds after folding; nothing is searched unless it is 1 to SEARCH_MAX_TERMS. */
  terms: number;
  total: number;
  hits: SearchHitRecord[];
}

/** A customer of the page (none: id null) with the total and the number of terms. */
type HitRow = Omit<SearchHitRecord, 'id'> & { id: string | null; total: number; terms: number };

/**
 * The search over the index of migration CustomerSearchByBroker1763700000013: each customer's words keyed by
 * every broker that sees the customer (`<broker id>:<word>`, GIN). The caller's customers matching a term are one
 * prefix match of `<caller's broker id>:<term>` (its words that are or begin with the term) together with, for a
 * term of five or more letters (no digits, no @), the caller's keys of the vocabulary's words holding the term
 * inside (pg_trgm over broker.customer_search_vocabulary). Every term must match, so the query is the AND of the
 * terms' matches, and the index finds exactly the caller's hits: the work follows the caller's customers, not
 * the tenant's, and only visible customers are ever read or counted.
 *
 * Each hit's rank comes from its own words: 0 the customer whose id the one term is; 1 every term is a whole
 * word; 2 every term at least begins a word; 3 some term only lies inside a word. Ties by id.
 *
 * One statement, whatever q holds: it folds and splits q (broker.search_terms), looks up the words holding a term
 * inside, searches and pages, one round trip. It runs prepared on connections that plan a statement once for all
 * values (`genericPlanPool`): its plan follows from the text (one per combination of the POST filters), and
 * planning it anew cost about as much as running it.
 */
@Injectable()
export class SearchRepository implements OnApplicationShutdown {
  private readonly connections: Pool;

  constructor(db: DataSource, @Inject(SEARCH_CONNECTIONS) size: number) {
    this.connections = genericPlanPool(db, size, 'search');
  }

  async onApplicationShutdown(): Promise<void> {
    await this.connections.end();
  }

  /** One page of the customers matching `q` that `scope` sees, their total, and how many terms q held. */
  async search(
    scope: EmployeeScope,
    q: string,
    filters: SearchFilters,
    page: SearchPage,
  ): Promise<FoundCustomers> {
    const sql = new SqlBuilder(scope, filters);
    const text = statementText(sql, q, page);
    const rows = await runPrepared<HitRow>(this.connections, { name: statementName(text), text }, sql.params);
    const hits = rows.filter((row): row is HitRow & { id: string } => row.id !== null);
    return {
      terms: rows[0]?.terms ?? 0,
      total: rows[0]?.total ?? 0,
      hits: hits.map(({ total: _total, terms: _terms, ...hit }) => hit),
    };
  }
}

/** Parameters, the caller and the POST form's filters of the statement being built. */
class SqlBuilder {
  readonly params: unknown[];
  readonly conditions: string[] = [];

  constructor(scope: EmployeeScope, filters: SearchFilters) {
    this.params = [scope.tenantId, scope.brokerId];
    if (filters.id !== undefined) this.conditions.push(`s.customer_id = ${this.param(filters.id)}::bigint`);
    if (filters.mail !== undefined)
      this.conditions.push(`s.customer_id IN (
        SELECT k.customer_id FROM broker.contact k
         WHERE k.tenant_id = $1 AND lower(k.value) = lower(${this.param(filters.mail.trim())})
           AND k.contact_type = 'email')`);
  }

  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }
}

/**
 * `terms`: q's terms with the vocabulary's words holding each inside (for terms that match inside words; not looked
 * up when q holds too many terms, as nothing is searched then; a term inside too many words matches none of them).
 * `query`: what the index is asked (the caller's keys), what ranks a hit (its plain words), the id of rank 0.
 * `hits`: every visible customer matching, with its rank; the caller's broker must be of the tenant.
 */
function statementText(sql: SqlBuilder, q: string, page: SearchPage): string {
  const filters = sql.conditions.map((condition) => ` AND ${condition}`).join('');
  return `WITH terms AS MATERIALIZED (
         SELECT t.term,
                CASE WHEN cardinality(q.terms) <= ${SEARCH_MAX_TERMS} AND char_length(t.term) >= ${INSIDE_WORD_TERM_LENGTH}
                          AND t.term ~ '^[${LETTERS}]+$' THEN ARRAY(
                  SELECT v.word FROM broker.customer_search_vocabulary v
                   WHERE v.word LIKE '%' || t.term || '%' AND NOT starts_with(v.word, t.term)
                   LIMIT ${MAX_INSIDE_WORDS + 1})
                ELSE '{}' END AS inside
           FROM broker.search_terms(${sql.param(q)}) AS q(terms), unnest(q.terms) AS t(term)),
       query AS MATERIALIZED (
         SELECT count(*)::int AS terms,
                broker.search_all(broker.search_match(
                  $2, term, CASE WHEN cardinality(inside) <= ${MAX_INSIDE_WORDS} THEN inside ELSE '{}' END)) AS keys,
                broker.search_all(broker.search_operand(term, false)::tsquery) AS whole,
                broker.search_all(broker.search_operand(term, true)::tsquery) AS beginning,
                CASE WHEN count(*) = 1 AND min(term) ~ '${ID}' THEN min(term)::bigint END AS id
           FROM terms),
       hits AS MATERIALIZED (
         SELECT s.customer_id,
                CASE WHEN s.customer_id = (SELECT id FROM query) THEN 0
                     WHEN s.words @@ (SELECT whole FROM query) THEN 1
                     WHEN s.words @@ (SELECT beginning FROM query) THEN 2
                     ELSE 3 END AS rank
           FROM broker.customer_search s
          WHERE broker.search_keys(s.brokers, s.words) @@ (SELECT keys FROM query)
            AND (SELECT terms FROM query) BETWEEN 1 AND ${SEARCH_MAX_TERMS}
            AND EXISTS (SELECT FROM broker.broker b WHERE b.id = $2 AND b.tenant_id = $1)${filters}),
       page AS (
         SELECT * FROM hits ORDER BY rank, customer_id
          LIMIT ${sql.param(page.size)} OFFSET ${sql.param(page.from)})
       SELECT t.total, t.terms, c.id::text AS id, c.salutation, c.person_type AS "personType", c.title,
              c.first_name AS "firstName", c.last_name AS "lastName", c.birth_date::text AS "birthDate",
              c.company_name AS "companyName", c.contact_person AS "contactPerson",
              c.founding_date::text AS "foundingDate",
              CASE WHEN a.customer_id IS NOT NULL THEN json_build_object(
                'type', a.address_type, 'addition', a.addition, 'street', a.street,
                'postalCode', a.postal_code, 'city', a.city, 'country', a.country) END AS "mainResidence"
         FROM (SELECT (SELECT count(*) FROM hits)::int AS total, (SELECT terms FROM query) AS terms) t
         LEFT JOIN (page p
                    JOIN broker.customer c ON c.id = p.customer_id AND c.tenant_id = $1
                    LEFT JOIN broker.address a ON a.customer_id = c.id AND a.address_no = 0) ON true
        ORDER BY p.rank, p.customer_id`;
}

/** One name per text of the search statement (a few: one per combination of filters), hashed once. */
const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `svc-search-${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    statementNames.set(text, name);
  }
  return name;
}
