import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { Administration, type WriteContext } from '@broker/administration';
import {
  type CompanyAgreementPage,
  type CompanyAgreementView,
  type CompanyPage,
  type CompanyView,
  CreateCompanyAgreementRequest,
  CreateCompanyRequest,
  ListCompanyAgreementsQuery,
  PageQuery,
} from '@broker/contracts';
import { ApiJsonAnswer, ApiQueryParameters } from '@broker/platform';
import { ADMIN_BASE, LOCATION_HEADER, setLocation, tenantPath } from '../answers.js';
import { AdminGuard, Writer } from '../auth/admin.guard.js';
import { ApiConflict } from '../documented-errors.js';

/**
 * Insurers of a tenant (the `companies` an import names) and brokers' agreements with them (area C's
 * getGesellschaften); both count at the next import or request.
 */
@Controller(`${ADMIN_BASE}/tenants/:tenant`)
@UseGuards(AdminGuard)
export class CompaniesController {
  constructor(private readonly admin: Administration) {}

  @ApiOperation({ operationId: 'createCompany', summary: 'Creates an insurer by its VU number' })
  @ApiJsonAnswer('CompanyView', { status: 201, description: 'Created', headers: LOCATION_HEADER })
  @ApiConflict('An insurer of this VU number exists')
  @Post('companies')
  @HttpCode(201)
  async createCompany(
    @Writer() writer: WriteContext,
    @Param('tenant') tenant: string,
    @Body() body: CreateCompanyRequest,
    @Res({ passthrough: true }) response: Response,
  ): Promise<CompanyView> {
    const company = await this.admin.companies.createCompany(writer, tenant, {
      vuNumber: body.vu_number,
      name: body.name,
    });
    setLocation(response, tenantPath(tenant, 'companies', company.vu_number));
    return company;
  }

  @ApiOperation({ operationId: 'listCompanies', summary: 'The tenant’s insurers, by VU number' })
  @ApiJsonAnswer('CompanyPage')
  @ApiQueryParameters(PageQuery)
  @Get('companies')
  listCompanies(@Param('tenant') tenant: string, @Query() page: PageQuery): Promise<CompanyPage> {
    return this.admin.companies.listCompanies(tenant, page);
  }

  @ApiOperation({ operationId: 'getCompany', summary: 'An insurer' })
  @ApiJsonAnswer('CompanyView')
  @Get('companies/:vuNumber')
  getCompany(@Param('tenant') tenant: string, @Param('vuNumber') vuNumber: string): Promise<CompanyView> {
    return this.admin.companies.getCompany(tenant, vuNumber);
  }

  @ApiOperation({
    operationId: 'createCompanyAgreement',
    summary: 'Records a broker’s agreement with an insurer, with its agency number there',
  })
  @ApiJsonAnswer('CompanyAgreementView', { status: 201, description: 'Created' })
  @ApiConflict('The broker has an agreement with this insurer')
  @Post('agreements')
  @HttpCode(201)
  createAgreement(
    @Writer() writer: WriteContext,
    @Param('tenant') tenant: string,
    @Body() body: CreateCompanyAgreementRequest,
  ): Promise<CompanyAgreementView> {
    return this.admin.companies.createAgreement(writer, tenant, {
      broker: body.broker,
      vuNumber: body.vu_number,
      agencyNumber: body.agency_number ?? null,
    });
  }

  @ApiOperation({ operationId: 'listCompanyAgreements', summary: 'Agreements, by broker and insurer' })
  @ApiJsonAnswer('CompanyAgreementPage')
  @ApiQueryParameters(ListCompanyAgreementsQuery)
  @Get('agreements')
  listAgreements(
    @Param('tenant') tenant: string,
    @Query() query: ListCompanyAgreementsQuery,
  ): Promise<CompanyAgreementPage> {
    const { broker, vu_number: vuNumber, offset, limit } = query;
    return this.admin.companies.listAgreements(tenant, { broker, vuNumber }, { offset, limit });
  }

  @ApiOperation({
    operationId: 'deleteCompanyAgreement',
    summary: 'Ends a broker’s agreement with an insurer',
  })
  @HttpCode(204)
  @Delete('agreements/:broker/:vuNumber')
  deleteAgreement(
    @Writer() writer: WriteContext,
    @Param('tenant') tenant: string,
    @Param('broker') broker: string,
    @Param('vuNumber') vuNumber: string,
  ): Promise<void> {
    return this.admin.companies.deleteAgreement(writer, tenant, broker, vuNumber);
  }
}
