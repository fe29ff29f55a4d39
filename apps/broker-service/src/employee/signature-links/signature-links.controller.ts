import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiJsonAnswer } from '@broker/platform';
import { ApiOperation } from '@nestjs/swagger';
import { HeaderGroupGuard } from '@broker/auth';
import { SendeUnterschrifftenlinkAuftrag } from '@broker/contracts';
import { DomainError } from '@broker/errors';
import { EMPLOYEE_BASE, type EmployeeScope, EmployeeScopeGuard, Scope } from '../employee-scope.js';
import { ParseIdPipe } from '../ids.js';
import { SignatureLinkService } from './signature-link.service.js';

/**
 * sendUnterschrifftenlink. The spec sends the order as the body of a GET on a path without a customer; the
 * customer is then `KundeId` in the body. POST is accepted too, and so is the path with the customer id.
 */
@Controller(`${EMPLOYEE_BASE}/:ma/kunden`)
@UseGuards(HeaderGroupGuard, EmployeeScopeGuard)
export class SignatureLinksController {
  constructor(private readonly links: SignatureLinkService) {}

  @ApiOperation({
    operationId: 'sendUnterschrifftenlink',
    summary: 'Sends a customer the link to sign (the order as the body of a GET)',
  })
  @ApiJsonAnswer('Meldungen')
  @Get('unterschriftenlinks/_senden')
  sendByGet(@Scope() scope: EmployeeScope, @Body() order: SendeUnterschrifftenlinkAuftrag) {
    return this.links.send(scope, customerOf(order), order);
  }

  @ApiOperation({
    operationId: 'sendUnterschrifftenlinkPost',
    summary: 'Sends a customer the link to sign (the order as the body of a POST; extension)',
  })
  @ApiJsonAnswer('Meldungen')
  @Post('unterschriftenlinks/_senden')
  @HttpCode(200)
  sendByPost(@Scope() scope: EmployeeScope, @Body() order: SendeUnterschrifftenlinkAuftrag) {
    return this.links.send(scope, customerOf(order), order);
  }

  @ApiOperation({
    operationId: 'sendKundenUnterschrifftenlink',
    summary: 'Sends this customer the link to sign (extension)',
  })
  @ApiJsonAnswer('Meldungen')
  @Get(':customerId/unterschriftenlinks/_senden')
  sendForCustomerByGet(
    @Scope() scope: EmployeeScope,
    @Param('customerId', ParseIdPipe) customerId: string,
    @Body() order: SendeUnterschrifftenlinkAuftrag,
  ) {
    return this.links.send(scope, sameCustomer(customerId, order), order);
  }

  @ApiOperation({
    operationId: 'sendKundenUnterschrifftenlinkPost',
    summary: 'Sends this customer the link to sign, by POST (extension)',
  })
  @ApiJsonAnswer('Meldungen')
  @Post(':customerId/unterschriftenlinks/_senden')
  @HttpCode(200)
  sendForCustomerByPost(
    @Scope() scope: EmployeeScope,
    @Param('customerId', ParseIdPipe) customerId: string,
    @Body() order: SendeUnterschrifftenlinkAuftrag,
  ) {
    return this.links.send(scope, sameCustomer(customerId, order), order);
  }
}

function customerOf(order: SendeUnterschrifftenlinkAuftrag): string {
  if (!order.KundeId) throw DomainError.validation(['KundeId is required on this path']);
  return order.KundeId;
}

/** On the path with a customer id, a KundeId in the body must name the same customer. */
function sameCustomer(customerId: string, order: SendeUnterschrifftenlinkAuftrag): string {
  if (order.KundeId !== undefined && order.KundeId !== customerId)
    throw DomainError.validation([`KundeId ${order.KundeId} is not the customer ${customerId} of the path`]);
  return customerId;
}
