import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query, Res, UseGuards } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { Administration, type WriteContext } from '@broker/administration';
import {
  CreateEmployeeRequest,
  type EmployeePage,
  type EmployeeView,
  PageQuery,
  UpdateEmployeeRequest,
} from '@broker/contracts';
import { ApiJsonAnswer, ApiQueryParameters } from '@broker/platform';
import { ADMIN_BASE, LOCATION_HEADER, setLocation, tenantPath } from '../answers.js';
import { AdminGuard, Writer } from '../auth/admin.guard.js';
import { ApiConflict } from '../documented-errors.js';

/** Employees of a broker: `{ma}` of area C; a disabled one is refused there. */
@Controller(`${ADMIN_BASE}/tenants/:tenant/brokers/:broker/employees`)
@UseGuards(AdminGuard)
export class EmployeesController {
  constructor(private readonly admin: Administration) {}

  @ApiOperation({ operationId: 'createEmployee', summary: 'Creates an employee of the broker' })
  @ApiJsonAnswer('EmployeeView', { status: 201, description: 'Created', headers: LOCATION_HEADER })
  @ApiConflict('The broker has an employee of this number')
  @Post()
  @HttpCode(201)
  async create(
    @Writer() writer: WriteContext,
    @Param('tenant') tenant: string,
    @Param('broker') broker: string,
    @Body() body: CreateEmployeeRequest,
    @Res({ passthrough: true }) response: Response,
  ): Promise<EmployeeView> {
    const employee = await this.admin.employees.create(writer, tenant, broker, {
      number: body.number,
      name: body.name,
      email: body.email ?? null,
    });
    setLocation(response, tenantPath(tenant, 'brokers', broker, 'employees', employee.number));
    return employee;
  }

  @ApiOperation({ operationId: 'listEmployees', summary: 'The broker’s employees, by number' })
  @ApiJsonAnswer('EmployeePage')
  @ApiQueryParameters(PageQuery)
  @Get()
  list(
    @Param('tenant') tenant: string,
    @Param('broker') broker: string,
    @Query() page: PageQuery,
  ): Promise<EmployeePage> {
    return this.admin.employees.list(tenant, broker, page);
  }

  @ApiOperation({ operationId: 'getEmployee', summary: 'An employee of the broker' })
  @ApiJsonAnswer('EmployeeView')
  @Get(':employee')
  get(
    @Param('tenant') tenant: string,
    @Param('broker') broker: string,
    @Param('employee') employee: string,
  ): Promise<EmployeeView> {
    return this.admin.employees.get(tenant, broker, employee);
  }

  @ApiOperation({
    operationId: 'updateEmployee',
    summary: 'Changes name or e-mail, or disables the employee (area C then refuses it)',
  })
  @ApiJsonAnswer('EmployeeView')
  @Patch(':employee')
  update(
    @Writer() writer: WriteContext,
    @Param('tenant') tenant: string,
    @Param('broker') broker: string,
    @Param('employee') employee: string,
    @Body() body: UpdateEmployeeRequest,
  ): Promise<EmployeeView> {
    return this.admin.employees.update(writer, tenant, broker, employee, body);
  }
}
