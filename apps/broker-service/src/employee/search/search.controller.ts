import { Body, Controller, Get, HttpCode, Post, Query, Res, UseGuards } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiJsonAnswer, ApiQueryParameters } from '@broker/platform';
import type { Response } from 'express';
import { HeaderGroupGuard } from '@broker/auth';
import { type KundenSuchErgebnis, SearchKundenParams, SearchQuery } from '@broker/contracts';
import { EMPLOYEE_BASE, type EmployeeScope, EmployeeScopeGuard, Scope } from '../employee-scope.js';
import { SearchService } from './search.service.js';

/** The total number of hits, for paging (spec: "Total", shown as X-Svc-Total). */
export const TOTAL_HEADER = 'X-Svc-Total';

/** The answer's description: the page of hits, with the total of all hits in X-Svc-Total. */
const HitsPage = () =>
  ApiJsonAnswer('KundenSuchErgebnis', {
    array: true,
    description: 'The page of hits, best first',
    headers: {
      [TOTAL_HEADER]: {
        description: 'The number of all hits, for paging',
        required: true,
        schema: { type: 'integer', minimum: 0 },
      },
    },
  });

/** searchKunden. Registered before the controller taking `kunden/{Kunde-Id}`, which `_search` would match. */
@Controller(`${EMPLOYEE_BASE}/:ma/kunden/_search`)
@UseGuards(HeaderGroupGuard, EmployeeScopeGuard)
export class SearchController {
  constructor(private readonly search: SearchService) {}

  @ApiOperation({ operationId: 'searchKunden', summary: 'Searches the customers the broker sees' })
  @ApiQueryParameters(SearchKundenParams)
  @HitsPage()
  @Get()
  async get(
    @Scope() scope: EmployeeScope,
    @Query() params: SearchKundenParams,
    @Res({ passthrough: true }) response: Response,
  ): Promise<KundenSuchErgebnis[]> {
    const { total, hits } = await this.search.find(scope, params);
    response.setHeader(TOTAL_HEADER, String(total));
    return hits;
  }

  /** The POST form: the same search, further filtered by the SearchQuery body. 200, not 201: nothing is created. */
  @ApiOperation({
    operationId: 'searchKundenGefiltert',
    summary: 'Searches the customers the broker sees, filtered by a SearchQuery',
  })
  @ApiQueryParameters(SearchKundenParams)
  @HitsPage()
  @Post()
  @HttpCode(200)
  async post(
    @Scope() scope: EmployeeScope,
    @Query() params: SearchKundenParams,
    @Body() filters: SearchQuery,
    @Res({ passthrough: true }) response: Response,
  ): Promise<KundenSuchErgebnis[]> {
    const { total, hits } = await this.search.find(scope, params, filters);
    response.setHeader(TOTAL_HEADER, String(total));
    return hits;
  }
}
