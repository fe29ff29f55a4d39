import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, UseGuards } from '@nestjs/common';
import { ApiJsonAnswer } from '@broker/platform';
import { ApiOperation } from '@nestjs/swagger';
import { HeaderGroupGuard } from '@broker/auth';
import { KontaktdatensatzInput, KontaktdatensatzUpdate } from '@broker/contracts';
import { EMPLOYEE_BASE, type EmployeeScope, EmployeeScopeGuard, Scope } from '../employee-scope.js';
import { ParseIdPipe } from '../ids.js';
import { ContactService } from './contact.service.js';

@Controller(`${EMPLOYEE_BASE}/:ma/kunden/:customerId/kontaktdaten`)
@UseGuards(HeaderGroupGuard, EmployeeScopeGuard)
export class ContactsController {
  constructor(private readonly contacts: ContactService) {}

  @ApiOperation({ operationId: 'getKundenKontaktdaten', summary: "The customer's contact entries" })
  @ApiJsonAnswer('KontaktdatensatzView', { array: true })
  @Get()
  list(@Scope() scope: EmployeeScope, @Param('customerId', ParseIdPipe) customerId: string) {
    return this.contacts.list(scope, customerId);
  }

  @ApiOperation({ operationId: 'addKundenKontaktdatensatz', summary: 'Adds a contact entry' })
  @ApiJsonAnswer('KontaktdatensatzView')
  @Post()
  @HttpCode(200)
  add(
    @Scope() scope: EmployeeScope,
    @Param('customerId', ParseIdPipe) customerId: string,
    @Body() input: KontaktdatensatzInput,
  ) {
    return this.contacts.add(scope, customerId, input);
  }

  @ApiOperation({ operationId: 'getKundenKontaktdatensatz', summary: 'One contact entry (extension)' })
  @ApiJsonAnswer('KontaktdatensatzView')
  @Get(':contactId')
  get(
    @Scope() scope: EmployeeScope,
    @Param('customerId', ParseIdPipe) customerId: string,
    @Param('contactId', ParseIdPipe) contactId: string,
  ) {
    return this.contacts.get(scope, customerId, contactId);
  }

  @ApiOperation({
    operationId: 'setKundenKontaktdatensatz',
    summary: 'Updates a contact entry (Value and Standard)',
  })
  @ApiJsonAnswer('KontaktdatensatzView')
  @Put(':contactId')
  set(
    @Scope() scope: EmployeeScope,
    @Param('customerId', ParseIdPipe) customerId: string,
    @Param('contactId', ParseIdPipe) contactId: string,
    @Body() input: KontaktdatensatzUpdate,
  ) {
    return this.contacts.set(scope, customerId, contactId, input);
  }

  @ApiOperation({ operationId: 'deleteKundenKontaktdatensatz', summary: 'Deletes a contact entry' })
  @Delete(':contactId')
  @HttpCode(204)
  async delete(
    @Scope() scope: EmployeeScope,
    @Param('customerId', ParseIdPipe) customerId: string,
    @Param('contactId', ParseIdPipe) contactId: string,
  ) {
    await this.contacts.delete(scope, customerId, contactId);
  }
}
