import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, UseGuards } from '@nestjs/common';
import { ApiJsonAnswer } from '@broker/platform';
import { ApiOperation } from '@nestjs/swagger';
import { HeaderGroupGuard } from '@broker/auth';
import { AdresseInput } from '@broker/contracts';
import { EMPLOYEE_BASE, type EmployeeScope, EmployeeScopeGuard, Scope } from '../employee-scope.js';
import { ParseAddressIdPipe, ParseIdPipe } from '../ids.js';
import { AddressService } from './address.service.js';

@Controller(`${EMPLOYEE_BASE}/:ma/kunden/:customerId/adressen`)
@UseGuards(HeaderGroupGuard, EmployeeScopeGuard)
export class AddressesController {
  constructor(private readonly addresses: AddressService) {}

  @ApiOperation({ operationId: 'getKundenAdressen', summary: "The customer's addresses" })
  @ApiJsonAnswer('AdresseView', { array: true })
  @Get()
  list(@Scope() scope: EmployeeScope, @Param('customerId', ParseIdPipe) customerId: string) {
    return this.addresses.list(scope, customerId);
  }

  @ApiOperation({ operationId: 'addKundenAdresse', summary: 'Adds an address (not the main residence)' })
  @ApiJsonAnswer('AdresseView')
  @Post()
  @HttpCode(200)
  add(
    @Scope() scope: EmployeeScope,
    @Param('customerId', ParseIdPipe) customerId: string,
    @Body() input: AdresseInput,
  ) {
    return this.addresses.add(scope, customerId, input);
  }

  @ApiOperation({ operationId: 'getKundenAdresse', summary: 'One address (extension)' })
  @ApiJsonAnswer('AdresseView')
  @Get(':addressId')
  get(
    @Scope() scope: EmployeeScope,
    @Param('customerId', ParseIdPipe) customerId: string,
    @Param('addressId', ParseAddressIdPipe) addressId: string,
  ) {
    return this.addresses.get(scope, customerId, Number(addressId));
  }

  @ApiOperation({ operationId: 'setKundenAdresse', summary: 'Replaces an address' })
  @ApiJsonAnswer('AdresseView')
  @Put(':addressId')
  set(
    @Scope() scope: EmployeeScope,
    @Param('customerId', ParseIdPipe) customerId: string,
    @Param('addressId', ParseAddressIdPipe) addressId: string,
    @Body() input: AdresseInput,
  ) {
    return this.addresses.set(scope, customerId, Number(addressId), input);
  }

  /** 204 No Content (the spec leaves the status open). */
  @ApiOperation({
    operationId: 'deleteKundenAdresse',
    summary: 'Deletes an address (not the main residence)',
  })
  @Delete(':addressId')
  @HttpCode(204)
  async delete(
    @Scope() scope: EmployeeScope,
    @Param('customerId', ParseIdPipe) customerId: string,
    @Param('addressId', ParseAddressIdPipe) addressId: string,
  ) {
    await this.addresses.delete(scope, customerId, Number(addressId));
  }
}
