import { Controller, Get, Param, Req, Res, UseGuards } from '@nestjs/common';
import { ApiJsonAnswer } from '@broker/platform';
import { ApiOperation } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { HeaderGroupGuard, type SvcPrincipal } from '@broker/auth';
import { sendEnumeration, sendRevalidated } from '../../http/revalidation.js';
import { BROKER_BASE, Caller } from '../broker-base.js';
import { CompanyListService } from './company-list.service.js';

/** The lists of the spec's multi-call example; both cacheable and revalidated by If-Modified-Since. */
@Controller(BROKER_BASE)
@UseGuards(HeaderGroupGuard)
export class ListsController {
  constructor(private readonly companies: CompanyListService) {}

  /** getLaender: every ISO 3166-1 country, {Value: alpha-2 code, Text: German name}. */
  @ApiOperation({ operationId: 'getLaender', summary: 'Countries' })
  @ApiJsonAnswer('EnumerationItem', { array: true, revalidated: true })
  @Get('laender')
  countries(@Req() request: Request, @Res() response: Response) {
    return sendEnumeration(request, response, 'laender');
  }

  /** The companies (insurers) of broker {vmt}, the caller or one below it: [{Id: VU number, Name}]. */
  @ApiOperation({
    operationId: 'getGesellschaften',
    summary: 'The insurance companies the broker works with',
  })
  @ApiJsonAnswer('GesellschaftView', { array: true, revalidated: true })
  @Get(':vmt/gesellschaften')
  async brokerCompanies(
    @Caller() caller: SvcPrincipal,
    @Param('vmt') brokerNumber: string,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const companies = await this.companies.of(caller, brokerNumber);
    sendRevalidated(request, response, companies.lastModified, companies.items);
  }
}
