import { Body, Controller, Get, Param, Put, UseGuards } from '@nestjs/common';
import { ApiJsonAnswer } from '@broker/platform';
import { ApiOperation } from '@nestjs/swagger';
import { HeaderGroupGuard } from '@broker/auth';
import { KundendetailInput } from '@broker/contracts';
import { EMPLOYEE_BASE, type EmployeeScope, EmployeeScopeGuard, Scope } from '../employee-scope.js';
import { ParseDetailIdPipe, ParseIdPipe } from '../ids.js';
import { DetailService } from './detail.service.js';

/** Registered before the customers controller: `kunden/details` is not a customer id. */
@Controller(`${EMPLOYEE_BASE}/:ma/kunden`)
@UseGuards(HeaderGroupGuard, EmployeeScopeGuard)
export class DetailsController {
  constructor(private readonly details: DetailService) {}

  @ApiOperation({
    operationId: 'getVermittlerKundenDetails',
    summary: 'The customer details the broker defines',
  })
  @ApiJsonAnswer('KundendetailDefinitionView', { array: true })
  @Get('details')
  definitions(@Scope() scope: EmployeeScope) {
    return this.details.definitions(scope);
  }

  @ApiOperation({
    operationId: 'getVermittlerKundenDetail',
    summary: 'One customer detail the broker defines',
  })
  @ApiJsonAnswer('KundendetailDefinitionView', { array: true })
  @Get('details/:detailId')
  definition(@Scope() scope: EmployeeScope, @Param('detailId', ParseDetailIdPipe) detailId: string) {
    return this.details.definition(scope, detailId);
  }

  @ApiOperation({ operationId: 'getKundenDetails', summary: "The customer's details" })
  @ApiJsonAnswer('KundendetailView', { array: true })
  @Get(':customerId/details')
  values(@Scope() scope: EmployeeScope, @Param('customerId', ParseIdPipe) customerId: string) {
    return this.details.values(scope, customerId);
  }

  @ApiOperation({ operationId: 'getKundenDetail', summary: "One of the customer's details" })
  @ApiJsonAnswer('KundendetailView')
  @Get(':customerId/details/:detailId')
  value(
    @Scope() scope: EmployeeScope,
    @Param('customerId', ParseIdPipe) customerId: string,
    @Param('detailId', ParseDetailIdPipe) detailId: string,
  ) {
    return this.details.value(scope, customerId, detailId);
  }

  @ApiOperation({
    operationId: 'setKundenDetail',
    summary: 'Creates or updates one of the customer’s details',
  })
  @ApiJsonAnswer('KundendetailView')
  @Put(':customerId/details/:detailId')
  set(
    @Scope() scope: EmployeeScope,
    @Param('customerId', ParseIdPipe) customerId: string,
    @Param('detailId', ParseDetailIdPipe) detailId: string,
    @Body() input: KundendetailInput,
  ) {
    return this.details.set(scope, customerId, detailId, input.Value);
  }
}
