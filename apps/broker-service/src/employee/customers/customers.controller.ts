import { Body, Controller, Get, HttpCode, Param, Post, Put, UseGuards } from '@nestjs/common';
import { ApiJsonAnswer } from '@broker/platform';
import { ApiOperation } from '@nestjs/swagger';
import { HeaderGroupGuard } from '@broker/auth';
import { KundeInput } from '@broker/contracts';
import { EMPLOYEE_BASE, type EmployeeScope, EmployeeScopeGuard, Scope } from '../employee-scope.js';
import { ParseIdPipe } from '../ids.js';
import { CustomerService } from './customer.service.js';

@Controller(`${EMPLOYEE_BASE}/:ma/kunden`)
@UseGuards(HeaderGroupGuard, EmployeeScopeGuard)
export class CustomersController {
  constructor(private readonly customers: CustomerService) {}

  /** addKunde: answers only Id and Benutzername (spec). */
  @ApiOperation({ operationId: 'addKunde', summary: 'Creates a customer of the employee’s broker' })
  @ApiJsonAnswer('KundeAngelegt')
  @Post()
  @HttpCode(200)
  add(@Scope() scope: EmployeeScope, @Body() input: KundeInput) {
    return this.customers.add(scope, input);
  }

  @ApiOperation({ operationId: 'getKunde', summary: 'One customer' })
  @ApiJsonAnswer('KundeView')
  @Get(':customerId')
  get(@Scope() scope: EmployeeScope, @Param('customerId', ParseIdPipe) customerId: string) {
    return this.customers.get(scope, customerId);
  }

  @ApiOperation({ operationId: 'setKunde', summary: 'Replaces a customer’s data' })
  @ApiJsonAnswer('KundeView')
  @Put(':customerId')
  set(
    @Scope() scope: EmployeeScope,
    @Param('customerId', ParseIdPipe) customerId: string,
    @Body() input: KundeInput,
  ) {
    return this.customers.set(scope, customerId, input);
  }
}
