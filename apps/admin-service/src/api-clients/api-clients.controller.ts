import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  Res,
  UseGuards,
} from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { Administration, type WriteContext } from '@broker/administration';
import {
  type ApiClientCreated,
  type ApiClientPage,
  type ApiClientView,
  type ApiKeyRotated,
  CreateApiClientRequest,
  ListApiClientsQuery,
  UpdateApiClientRequest,
} from '@broker/contracts';
import { ApiJsonAnswer, ApiQueryParameters } from '@broker/platform';
import {
  ADMIN_BASE,
  LOCATION_HEADER,
  SECRET_ANSWER_HEADERS,
  setLocation,
  setNoStore,
  tenantPath,
} from '../answers.js';
import { AdminGuard, Writer } from '../auth/admin.guard.js';
import { ApiConflict } from '../documented-errors.js';

/**
 * API clients of area C (the header group's X-Svc-Api-Id). A key and its OTP URI are shown only in the answer that
 * made them; area C takes every change at its next request.
 */
@Controller(`${ADMIN_BASE}/tenants/:tenant`)
@UseGuards(AdminGuard)
export class ApiClientsController {
  constructor(private readonly admin: Administration) {}

  @ApiOperation({
    operationId: 'createApiClient',
    summary: 'Creates an API client of the broker; its key and OTP URI are shown only in this answer',
  })
  @ApiJsonAnswer('ApiClientCreated', {
    status: 201,
    description: 'Created',
    headers: { ...LOCATION_HEADER, ...SECRET_ANSWER_HEADERS },
  })
  @ApiConflict('An API client of this id exists')
  @Post('brokers/:broker/api-clients')
  @HttpCode(201)
  async create(
    @Writer() writer: WriteContext,
    @Param('tenant') tenant: string,
    @Param('broker') broker: string,
    @Body() body: CreateApiClientRequest,
    @Res({ passthrough: true }) response: Response,
  ): Promise<ApiClientCreated> {
    const created = await this.admin.apiClients.create(writer, tenant, broker, { apiId: body.api_id });
    setLocation(response, tenantPath(tenant, 'api-clients', created.api_id));
    setNoStore(response);
    return created;
  }

  @ApiOperation({
    operationId: 'listApiClients',
    summary: 'API clients of the tenant or of one broker (no keys)',
  })
  @ApiJsonAnswer('ApiClientPage')
  @ApiQueryParameters(ListApiClientsQuery)
  @Get('api-clients')
  list(@Param('tenant') tenant: string, @Query() query: ListApiClientsQuery): Promise<ApiClientPage> {
    const { broker, offset, limit } = query;
    return this.admin.apiClients.list(tenant, { broker }, { offset, limit });
  }

  @ApiOperation({ operationId: 'getApiClient', summary: 'An API client (no key)' })
  @ApiJsonAnswer('ApiClientView')
  @Get('api-clients/:apiId')
  get(@Param('tenant') tenant: string, @Param('apiId') apiId: string): Promise<ApiClientView> {
    return this.admin.apiClients.get(tenant, apiId);
  }

  @ApiOperation({
    operationId: 'updateApiClient',
    summary: 'Blocks or unblocks the client: area C answers a blocked client 403',
  })
  @ApiJsonAnswer('ApiClientView')
  @Patch('api-clients/:apiId')
  update(
    @Writer() writer: WriteContext,
    @Param('tenant') tenant: string,
    @Param('apiId') apiId: string,
    @Body() body: UpdateApiClientRequest,
  ): Promise<ApiClientView> {
    return this.admin.apiClients.update(writer, tenant, apiId, body);
  }

  @ApiOperation({
    operationId: 'deleteApiClient',
    summary: 'Deletes the client: area C answers its API id 404',
  })
  @HttpCode(204)
  @Delete('api-clients/:apiId')
  remove(
    @Writer() writer: WriteContext,
    @Param('tenant') tenant: string,
    @Param('apiId') apiId: string,
  ): Promise<void> {
    return this.admin.apiClients.delete(writer, tenant, apiId);
  }

  @ApiOperation({
    operationId: 'rotateApiClientKey',
    summary: 'A new key, shown only here; the previous key keeps working for 24 hours',
  })
  @ApiJsonAnswer('ApiKeyRotated', { headers: SECRET_ANSWER_HEADERS })
  @Post('api-clients/:apiId/key')
  @HttpCode(200)
  async rotate(
    @Writer() writer: WriteContext,
    @Param('tenant') tenant: string,
    @Param('apiId') apiId: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<ApiKeyRotated> {
    const rotated = await this.admin.apiClients.rotateKey(writer, tenant, apiId);
    setNoStore(response);
    return rotated;
  }
}
