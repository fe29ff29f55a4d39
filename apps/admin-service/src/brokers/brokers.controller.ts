import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query, Res, UseGuards } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { Administration, type WriteContext } from '@broker/administration';
import {
  type BrokerDetailView,
  type BrokerPage,
  type BrokerView,
  CreateBrokerRequest,
  ListBrokersQuery,
  UpdateBrokerRequest,
} from '@broker/contracts';
import { ApiJsonAnswer, ApiQueryParameters } from '@broker/platform';
import { ADMIN_BASE, LOCATION_HEADER, setLocation, tenantPath } from '../answers.js';
import { AdminGuard, Writer } from '../auth/admin.guard.js';
import { ApiConflict } from '../documented-errors.js';

/** Brokers of a tenant and their hierarchy (area C's rules: no cycle, a superior of the same tenant). */
@Controller(`${ADMIN_BASE}/tenants/:tenant/brokers`)
@UseGuards(AdminGuard)
export class BrokersController {
  constructor(private readonly admin: Administration) {}

  @ApiOperation({
    operationId: 'createBroker',
    summary: 'Creates a broker, at the top of the tree or below `parent`',
  })
  @ApiJsonAnswer('BrokerView', { status: 201, description: 'Created', headers: LOCATION_HEADER })
  @ApiConflict('A broker of this number exists')
  @Post()
  @HttpCode(201)
  async create(
    @Writer() writer: WriteContext,
    @Param('tenant') tenant: string,
    @Body() body: CreateBrokerRequest,
    @Res({ passthrough: true }) response: Response,
  ): Promise<BrokerView> {
    const broker = await this.admin.brokers.create(writer, tenant, {
      number: body.number,
      name: body.name,
      parent: body.parent ?? null,
      blocked: body.blocked ?? false,
    });
    setLocation(response, tenantPath(tenant, 'brokers', broker.number));
    return broker;
  }

  @ApiOperation({
    operationId: 'listBrokers',
    summary: 'Brokers of the tenant, by superior and text, sorted and paged',
  })
  @ApiJsonAnswer('BrokerPage')
  @ApiQueryParameters(ListBrokersQuery)
  @Get()
  list(@Param('tenant') tenant: string, @Query() query: ListBrokersQuery): Promise<BrokerPage> {
    const { parent, q, sort, offset, limit } = query;
    return this.admin.brokers.list(tenant, { parent, q, sort }, { offset, limit });
  }

  @ApiOperation({
    operationId: 'getBroker',
    summary: 'A broker with its superior, its sub-brokers’ count, its employees and API clients (no keys)',
  })
  @ApiJsonAnswer('BrokerDetailView')
  @Get(':broker')
  get(@Param('tenant') tenant: string, @Param('broker') broker: string): Promise<BrokerDetailView> {
    return this.admin.brokers.get(tenant, broker);
  }

  @ApiOperation({
    operationId: 'updateBroker',
    summary: 'Changes name, blocked or superior (`parent`; null: to the top of the tree)',
  })
  @ApiJsonAnswer('BrokerView')
  @Patch(':broker')
  update(
    @Writer() writer: WriteContext,
    @Param('tenant') tenant: string,
    @Param('broker') broker: string,
    @Body() body: UpdateBrokerRequest,
  ): Promise<BrokerView> {
    return this.admin.brokers.update(writer, tenant, broker, body);
  }
}
