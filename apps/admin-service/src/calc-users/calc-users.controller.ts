import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query, Res, UseGuards } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { Administration, type WriteContext } from '@broker/administration';
import {
  type CalcUserPage,
  type CalcUserView,
  CreateCalcUserRequest,
  PageQuery,
  UpdateCalcUserRequest,
} from '@broker/contracts';
import { ApiJsonAnswer, ApiQueryParameters } from '@broker/platform';
import { ADMIN_BASE, LOCATION_HEADER, setLocation, tenantPath } from '../answers.js';
import { AdminGuard, Writer } from '../auth/admin.guard.js';
import { ApiConflict } from '../documented-errors.js';

/** Users of the calculation service (area B): passwords by the platform's rules, stored as argon2id. */
@Controller(`${ADMIN_BASE}/tenants/:tenant/calc-users`)
@UseGuards(AdminGuard)
export class CalcUsersController {
  constructor(private readonly admin: Administration) {}

  @ApiOperation({
    operationId: 'createCalcUser',
    summary: 'Creates a calculation user; user names are unique across tenants',
  })
  @ApiJsonAnswer('CalcUserView', { status: 201, description: 'Created', headers: LOCATION_HEADER })
  @ApiConflict('The user name is taken')
  @Post()
  @HttpCode(201)
  async create(
    @Writer() writer: WriteContext,
    @Param('tenant') tenant: string,
    @Body() body: CreateCalcUserRequest,
    @Res({ passthrough: true }) response: Response,
  ): Promise<CalcUserView> {
    const user = await this.admin.calcUsers.create(writer, tenant, body);
    setLocation(response, tenantPath(tenant, 'calc-users', user.username));
    return user;
  }

  @ApiOperation({ operationId: 'listCalcUsers', summary: 'The tenant’s calculation users (no passwords)' })
  @ApiJsonAnswer('CalcUserPage')
  @ApiQueryParameters(PageQuery)
  @Get()
  list(@Param('tenant') tenant: string, @Query() page: PageQuery): Promise<CalcUserPage> {
    return this.admin.calcUsers.list(tenant, page);
  }

  @ApiOperation({ operationId: 'getCalcUser', summary: 'A calculation user (no password)' })
  @ApiJsonAnswer('CalcUserView')
  @Get(':username')
  get(@Param('tenant') tenant: string, @Param('username') username: string): Promise<CalcUserView> {
    return this.admin.calcUsers.get(tenant, username);
  }

  @ApiOperation({
    operationId: 'updateCalcUser',
    summary:
      'Disables or enables the user, or sets its password: a disabled user’s tokens are refused within ' +
      'CALC_USER_STATUS_SECONDS, an enabled user logs in at once',
  })
  @ApiJsonAnswer('CalcUserView')
  @Patch(':username')
  update(
    @Writer() writer: WriteContext,
    @Param('tenant') tenant: string,
    @Param('username') username: string,
    @Body() body: UpdateCalcUserRequest,
  ): Promise<CalcUserView> {
    return this.admin.calcUsers.update(writer, tenant, username, body);
  }
}
