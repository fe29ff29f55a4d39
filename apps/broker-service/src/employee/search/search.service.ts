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
import { type SearchHitRecord, SearchRepository } from './search.repository.js';

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
    const found = await this.search.search(scope, params.q, searchFilters, page);
    if (found.terms === 0) throw DomainError.validation(['q must hold at least one letter or digit']);
    if (found.terms > SEARCH_MAX_TERMS)
      throw DomainError.validation([`q may hold at most ${SEARCH_MAX_TERMS} words`]);
    return { total: found.total, hits: found.hits.map((hit) => searchResult(scope, hit)) };
  }
}

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
