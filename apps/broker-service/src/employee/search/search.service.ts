import { Injectable } from '@nestjs/common';
import {
  type KundenSuchErgebnis,
  MAIN_RESIDENCE,
  SEARCH_MAX_TERMS,
  type SearchKundenParams,
  type SearchQuery,
} from '@broker/contracts';
import { DomainError } from '@broker/errors';
import type { EmployeeScope } from '../employee-scope.js';
import { customerPath } from '../visible-customer.js';
import {
  type SearchFilters,
  type SearchHitRecord,
  type SearchPage,
  SearchRepository,
} from './search.repository.js';

/** searchKunden, GET and POST: one page of hits, best first, and the total number of hits. */
@Injectable()
export class SearchService {
  constructor(private readonly search: SearchRepository) {}

  async find(
    scope: EmployeeScope,
    params: SearchKundenParams,
    filters: SearchQuery = {},
  ): Promise<{ total: number; hits: KundenSuchErgebnis[] }> {
    // A filter given as null is no filter.
    const searchFilters = { mail: filters.mail ?? undefined, id: filters.id ?? undefined };
    const page = { from: params.from, size: params.size };
    const found =
      (mayBeOneTerm(params.q) && (await this.search.oneTermSearch(scope, params.q, searchFilters, page))) ||
      (await this.byTerms(scope, params.q, searchFilters, page));
    return { total: found.total, hits: found.hits.map((hit) => searchResult(scope, hit)) };
  }

  /** A query of any number of terms: its terms are read first. */
  private async byTerms(scope: EmployeeScope, q: string, filters: SearchFilters, page: SearchPage) {
    const terms = await this.search.terms(q);
    if (terms.length === 0) throw DomainError.validation(['q must hold at least one letter or digit']);
    if (terms.length > SEARCH_MAX_TERMS)
      throw DomainError.validation([`q may hold at most ${SEARCH_MAX_TERMS} words`]);
    const found =
      terms.length === 1
        ? await this.search.oneTermSearch(scope, q, filters, page)
        : await this.search.severalTermSearch(scope, terms, filters, page);
    if (!found) throw new Error(`q folded to one term and then not: ${JSON.stringify(q)}`);
    return found;
  }
}

/**
 * Whether `q` is most likely one term (see apps/broker-service/README.md, "Search"): one word of letters and
 * digits, an e-mail address or a phone number. The one-term search tells when it is not, and the terms are read.
 */
const mayBeOneTerm = (q: string) => /^\s*(?:[\p{L}\p{N}]+|\S+@\S*|[\s\d+()/.-]+)\s*$/u.test(q);

function searchResult(scope: EmployeeScope, hit: SearchHitRecord): KundenSuchErgebnis {
  const address = hit.mainResidence;
  return {
    Uri: customerPath(scope, hit.id),
    Id: hit.id,
    Anrede: hit.salutation,
    Person:
      hit.personType === 'juristisch'
        ? {
            Typ: 'juristisch',
            Firma: hit.companyName,
            Ansprechpartner: hit.contactPerson,
            Gruendungsdatum: hit.foundingDate,
          }
        : {
            Typ: 'natuerlich',
            Titel: hit.title,
            Vorname: hit.firstName,
            Nachname: hit.lastName,
            Geburtsdatum: hit.birthDate,
          },
    Hauptwohnsitz: address && {
      Uri: customerPath(scope, hit.id, 'adressen', '0'),
      Id: '0',
      Typ: MAIN_RESIDENCE,
      Zusatz: address.addition,
      Strasse: address.street,
      Postleitzahl: address.postalCode,
      Ort: address.city,
      Land: address.country,
    },
  };
}
