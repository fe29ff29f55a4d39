import {
  Body,
  Controller,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import { ApiJsonAnswer, ApiQueryParameters } from '@broker/platform';
import { ApiOperation } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { HeaderGroupGuard, type SvcPrincipal } from '@broker/auth';
import {
  UntervermittlerAnlageInput,
  UntervermittlerdatensatzInput,
  UntervermittlerListParams,
  type UntervermittlerView,
} from '@broker/contracts';
import { sendRevalidated } from '../../http/revalidation.js';
import { TOTAL_HEADER } from '../../employee/search/search.controller.js';
import { BROKER_BASE, Caller } from '../broker-base.js';
import { SubBrokerService } from './sub-broker.service.js';

const LOCATION = {
  Location: {
    description: 'The new sub-broker’s getVermittler path',
    required: true,
    schema: { type: 'string' },
  },
};

@Controller(`${BROKER_BASE}/vermittler`)
@UseGuards(HeaderGroupGuard)
export class SubBrokersController {
  constructor(private readonly subBrokers: SubBrokerService) {}

  /** createUntervermittler (the spec's sub-broker creation): 201 with Location and the sub-broker as stored. */
  @ApiOperation({
    operationId: 'createUntervermittler',
    summary:
      'Creates a sub-broker below the caller’s broker, or below one of its sub-brokers (Uebervermittler)',
  })
  @ApiJsonAnswer('UntervermittlerView', { status: 201, description: 'Created', headers: LOCATION })
  @Post()
  @HttpCode(201)
  async create(
    @Caller() caller: SvcPrincipal,
    @Body() input: UntervermittlerAnlageInput,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<UntervermittlerView> {
    const created = await this.subBrokers.create(caller, input);
    const base = request.originalUrl.split('?')[0].replace(/\/$/, '');
    response.setHeader('Location', `${base}/${encodeURIComponent(created.Vermittler)}`);
    return created;
  }

  /** listUntervermittler: every broker below the caller's, by number, paged, revalidated by If-Modified-Since. */
  @ApiOperation({
    operationId: 'listUntervermittler',
    summary: 'The brokers below the caller’s broker (all levels), by number',
  })
  @ApiQueryParameters(UntervermittlerListParams)
  @ApiJsonAnswer('UntervermittlerView', {
    array: true,
    revalidated: true,
    headers: {
      [TOTAL_HEADER]: {
        description: 'The number of all sub-brokers, for paging',
        required: true,
        schema: { type: 'integer', minimum: 0 },
      },
    },
  })
  @Get()
  async list(
    @Caller() caller: SvcPrincipal,
    @Query() page: UntervermittlerListParams,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const { views, total, lastModified } = await this.subBrokers.list(caller, page);
    sendRevalidated(request, response, lastModified, views, { [TOTAL_HEADER]: String(total) });
  }

  /** getVermittler (the spec's broker information): the caller's broker or one below it. */
  @ApiOperation({ operationId: 'getVermittler', summary: 'The caller’s broker or a broker below it' })
  @ApiJsonAnswer('UntervermittlerView', { revalidated: true })
  @Get(':vmt')
  async get(
    @Caller() caller: SvcPrincipal,
    @Param('vmt') brokerNumber: string,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const { view, lastModified } = await this.subBrokers.get(caller, brokerNumber);
    sendRevalidated(request, response, lastModified, view);
  }

  /** updateUntervermittler: {vmt} is a broker below the caller; answers the sub-broker as stored. */
  @ApiOperation({
    operationId: 'updateUntervermittler',
    summary: 'Updates a sub-broker; Uebervermittler moves it in the hierarchy',
  })
  @ApiJsonAnswer('UntervermittlerView')
  @Patch(':vmt')
  update(
    @Caller() caller: SvcPrincipal,
    @Param('vmt') brokerNumber: string,
    @Body() input: UntervermittlerdatensatzInput,
  ): Promise<UntervermittlerView> {
    return this.subBrokers.update(caller, brokerNumber, input);
  }
}
