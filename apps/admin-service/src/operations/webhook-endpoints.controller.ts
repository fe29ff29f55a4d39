import { Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { WebhookEndpointOperations, type WriteContext } from '@broker/administration';
import {
  ListWebhookEndpointsQuery,
  type OperatorWebhookEndpointDetail,
  type OperatorWebhookEndpointPage,
  RedeliverRequest,
  type RedeliveryResult,
} from '@broker/contracts';
import { ApiJsonAnswer, ApiQueryParameters } from '@broker/platform';
import { ADMIN_BASE } from '../answers.js';
import { AdminGuard, Writer } from '../auth/admin.guard.js';
import { ApiConflict } from '../documented-errors.js';

/** The webhook endpoints of the tenant's brokers (import events): health, attempts, and the operator's mends. */
@Controller(`${ADMIN_BASE}/tenants/:tenant/webhook-endpoints`)
@UseGuards(AdminGuard)
export class WebhookEndpointsController {
  constructor(private readonly endpoints: WebhookEndpointOperations) {}

  @ApiOperation({
    operationId: 'listWebhookEndpoints',
    summary: 'The webhook endpoints of the tenant’s brokers, failing ones first',
  })
  @ApiJsonAnswer('OperatorWebhookEndpointPage')
  @ApiQueryParameters(ListWebhookEndpointsQuery)
  @Get()
  list(
    @Param('tenant') tenant: string,
    @Query() query: ListWebhookEndpointsQuery,
  ): Promise<OperatorWebhookEndpointPage> {
    const { broker, state, offset, limit } = query;
    return this.endpoints.list(tenant, { broker, state }, { offset, limit });
  }

  @ApiOperation({
    operationId: 'getWebhookEndpoint',
    summary: 'A webhook endpoint with its last attempts and its undelivered events',
  })
  @ApiJsonAnswer('OperatorWebhookEndpointDetail')
  @Get(':endpointId')
  get(
    @Param('tenant') tenant: string,
    @Param('endpointId') endpointId: string,
  ): Promise<OperatorWebhookEndpointDetail> {
    return this.endpoints.get(tenant, endpointId);
  }

  @ApiOperation({
    operationId: 'enableWebhookEndpoint',
    summary:
      'Enables a webhook endpoint that was disabled after failing too long, its failing time forgotten',
  })
  @ApiJsonAnswer('OperatorWebhookEndpointDetail')
  @ApiConflict('The endpoint is enabled and healthy already')
  @Post(':endpointId/enable')
  @HttpCode(200)
  enable(
    @Writer() writer: WriteContext,
    @Param('tenant') tenant: string,
    @Param('endpointId') endpointId: string,
  ): Promise<OperatorWebhookEndpointDetail> {
    return this.endpoints.enable(writer, tenant, endpointId);
  }

  @ApiOperation({
    operationId: 'redeliverWebhookDeliveries',
    summary: 'Delivers abandoned events again: one (`delivery_id`) or every abandoned one of the endpoint',
  })
  @ApiJsonAnswer('RedeliveryResult')
  @ApiConflict('The endpoint is disabled: enable it first')
  @Post(':endpointId/redeliver')
  @HttpCode(200)
  redeliver(
    @Writer() writer: WriteContext,
    @Param('tenant') tenant: string,
    @Param('endpointId') endpointId: string,
    @Body() body: RedeliverRequest,
  ): Promise<RedeliveryResult> {
    return this.endpoints.redeliver(writer, tenant, endpointId, body.delivery_id);
  }
}
