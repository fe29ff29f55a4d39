import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  ParseUUIDPipe,
  Post,
  Req,
  UseGuards,
} from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import type { Request } from 'express';
import {
  CreateWebhookEndpoint,
  type WebhookAttemptView,
  type WebhookEndpointCreated,
  type WebhookEndpointView,
} from '@broker/contracts';
import { OAuthBearerGuard, principalOf } from '@broker/auth';
import { ApiJsonAnswer } from '@broker/platform';
import { WebhooksService } from './webhooks.service.js';

const EndpointId = new ParseUUIDPipe({ version: '4' });

/**
 * Beyond the spec: webhook endpoints of the broker the token acts for, signed per Standard Webhooks 1.0. An
 * endpoint gets the events it asks for of the processes of its broker and of every broker below it.
 */
@Controller('api/v1/webhooks')
@UseGuards(OAuthBearerGuard)
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @ApiOperation({
    operationId: 'createWebhookEndpoint',
    summary: 'Registers a webhook endpoint; the answer carries its signing secret, shown only here',
    description: 'The deliveries it then gets are described as this operation’s callback `importEvent`.',
  })
  @ApiJsonAnswer('WebhookEndpointCreated', { status: 201, description: 'Registered' })
  @Post()
  create(@Req() request: Request, @Body() body: CreateWebhookEndpoint): Promise<WebhookEndpointCreated> {
    return this.webhooks.create(principalOf(request), body);
  }

  @ApiOperation({
    operationId: 'listWebhookEndpoints',
    summary: 'The broker’s webhook endpoints (no secrets)',
  })
  @ApiJsonAnswer('WebhookEndpointView', { array: true })
  @Get()
  list(@Req() request: Request): Promise<WebhookEndpointView[]> {
    return this.webhooks.list(principalOf(request));
  }

  @ApiOperation({
    operationId: 'deleteWebhookEndpoint',
    summary: 'Removes an endpoint; nothing more is sent to it',
  })
  @HttpCode(204)
  @Delete(':endpointId')
  remove(@Req() request: Request, @Param('endpointId', EndpointId) id: string): Promise<void> {
    return this.webhooks.remove(principalOf(request), id);
  }

  @ApiOperation({
    operationId: 'rotateWebhookSecret',
    summary: 'A new signing secret, shown only here; the previous one signs beside it for 24 hours',
  })
  @ApiJsonAnswer('WebhookEndpointCreated')
  @Post(':endpointId/secret')
  @HttpCode(200)
  rotateSecret(
    @Req() request: Request,
    @Param('endpointId', EndpointId) id: string,
  ): Promise<WebhookEndpointCreated> {
    return this.webhooks.rotateSecret(principalOf(request), id);
  }

  @ApiOperation({ operationId: 'listWebhookAttempts', summary: 'The endpoint’s last 100 delivery attempts' })
  @ApiJsonAnswer('WebhookAttemptView', { array: true })
  @Get(':endpointId/attempts')
  attempts(
    @Req() request: Request,
    @Param('endpointId', EndpointId) id: string,
  ): Promise<WebhookAttemptView[]> {
    return this.webhooks.attempts(principalOf(request), id);
  }
}
