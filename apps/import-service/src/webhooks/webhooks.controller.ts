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
import { ApiOperation, type OpenAPIObject } from '@nestjs/swagger';
import type { Request } from 'express';
import {
  CreateWebhookEndpoint,
  type WebhookAttemptView,
  type WebhookEndpointCreated,
  type WebhookEndpointView,
} from '@broker/contracts';
import { OAuthBearerGuard, principalOf } from '@broker/auth';
import { ApiJsonAnswer } from '@broker/platform';
import { DELIVERY_TIMEOUT_MS } from './webhook-sender.js';
import { WebhooksService } from './webhooks.service.js';

const EndpointId = new ParseUUIDPipe({ version: '4' });

/**
 * Beyond the spec: webhook endpoints of the broker the token acts for, signed per Standard Webhooks 1.0. An
 * endpoint gets the events it asks for of the processes of its broker and of every broker below it.
 */
/** How a delivery reaches the endpoint: the registration's callback in the document. */
const DELIVERY: NonNullable<OpenAPIObject['paths'][string]['post']> = {
  operationId: 'deliverImportEvent',
  summary: 'A delivery: one event, signed per Standard Webhooks 1.0',
  parameters: [
    {
      name: 'webhook-id',
      in: 'header',
      required: true,
      description: 'The same on every attempt of one delivery',
      schema: { type: 'string' },
    },
    {
      name: 'webhook-timestamp',
      in: 'header',
      required: true,
      description: 'When this attempt was sent (epoch seconds)',
      schema: { type: 'integer' },
    },
    {
      name: 'webhook-signature',
      in: 'header',
      required: true,
      description:
        '`v1,<base64 HMAC-SHA256 of id.timestamp.body>` per secret, space-separated (two while a rotated secret is valid)',
      schema: { type: 'string' },
    },
  ],
  requestBody: {
    required: true,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ImportWebhookEvent' } } },
  },
  responses: {
    '2XX': {
      description: `Received. Any other answer, or none within ${DELIVERY_TIMEOUT_MS / 1000} s, is retried (docs/import-events.md)`,
    },
  },
};

@Controller('api/v1/webhooks')
@UseGuards(OAuthBearerGuard)
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @ApiOperation({
    operationId: 'createWebhookEndpoint',
    summary: 'Registers a webhook endpoint; the answer carries its signing secret, shown only here',
    callbacks: { importEvent: { '{$request.body#/url}': { post: DELIVERY } } },
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
