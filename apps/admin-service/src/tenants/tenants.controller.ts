import { Body, Controller, Get, HttpCode, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { Administration, type WriteContext } from '@broker/administration';
import { CreateTenantRequest, PageQuery, type TenantPage, type TenantView } from '@broker/contracts';
import { ApiJsonAnswer, ApiQueryParameters } from '@broker/platform';
import { ADMIN_BASE, LOCATION_HEADER, setLocation, tenantPath } from '../answers.js';
import { Admin, AdminGuard, OperatorOnly, Writer } from '../auth/admin.guard.js';
import type { AdminPrincipal } from '../auth/admin-principal.js';
import { ApiConflict } from '../documented-errors.js';

@Controller(`${ADMIN_BASE}/tenants`)
@UseGuards(AdminGuard)
export class TenantsController {
  constructor(private readonly admin: Administration) {}

  @ApiOperation({ operationId: 'createTenant', summary: 'Creates a tenant (operators only)' })
  @ApiJsonAnswer('TenantView', { status: 201, description: 'Created', headers: LOCATION_HEADER })
  @ApiConflict('A tenant of this id exists')
  @OperatorOnly()
  @Post()
  @HttpCode(201)
  async create(
    @Writer() writer: WriteContext,
    @Body() body: CreateTenantRequest,
    @Res({ passthrough: true }) response: Response,
  ): Promise<TenantView> {
    const tenant = await this.admin.tenants.create(writer, body);
    setLocation(response, tenantPath(tenant.id));
    return tenant;
  }

  @ApiOperation({
    operationId: 'listTenants',
    summary:
      'The tenants the caller administers: every tenant for an operator, its own for a tenant administrator',
  })
  @ApiJsonAnswer('TenantPage')
  @ApiQueryParameters(PageQuery)
  @Get()
  list(@Admin() principal: AdminPrincipal, @Query() page: PageQuery): Promise<TenantPage> {
    return this.admin.tenants.list(page, principal.tenantCode ?? undefined);
  }

  @ApiOperation({ operationId: 'getTenant', summary: 'A tenant' })
  @ApiJsonAnswer('TenantView')
  @Get(':tenant')
  get(@Param('tenant') tenant: string): Promise<TenantView> {
    return this.admin.tenants.get(tenant);
  }
}
