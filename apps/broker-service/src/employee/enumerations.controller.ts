import { Controller, Get, Req, Res, UseGuards } from '@nestjs/common';
import { ApiJsonAnswer } from '@broker/platform';
import { ApiOperation } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { HeaderGroupGuard } from '@broker/auth';
import { sendEnumeration } from '../http/revalidation.js';
import { EMPLOYEE_BASE } from './employee-scope.js';

/**
 * The enumeration operations (getAnreden, getKundenKontaktarten, getKundenNotizTypen, getAdresstypen,
 * getLaender): lists of {Value, Text}, the Value being the key clients send; cacheable and revalidated by
 * If-Modified-Since.
 */
@Controller(EMPLOYEE_BASE)
@UseGuards(HeaderGroupGuard)
export class EnumerationsController {
  @ApiOperation({ operationId: 'getAnreden', summary: 'Salutations' })
  @ApiJsonAnswer('EnumerationItem', { array: true, revalidated: true })
  @Get('anreden')
  salutations(@Req() request: Request, @Res() response: Response) {
    return sendEnumeration(request, response, 'anreden');
  }

  @ApiOperation({ operationId: 'getKundenKontaktarten', summary: 'Kinds of contact entries' })
  @ApiJsonAnswer('EnumerationItem', { array: true, revalidated: true })
  @Get('kontaktarten')
  contactKinds(@Req() request: Request, @Res() response: Response) {
    return sendEnumeration(request, response, 'kontaktarten');
  }

  @ApiOperation({ operationId: 'getKundenNotizTypen', summary: 'Types of customer notes' })
  @ApiJsonAnswer('EnumerationItem', { array: true, revalidated: true })
  @Get('notiztypen')
  noteTypes(@Req() request: Request, @Res() response: Response) {
    return sendEnumeration(request, response, 'notiztypen');
  }

  @ApiOperation({ operationId: 'getAdresstypen', summary: 'Types of addresses' })
  @ApiJsonAnswer('EnumerationItem', { array: true, revalidated: true })
  @Get('adresstypen')
  addressTypes(@Req() request: Request, @Res() response: Response) {
    return sendEnumeration(request, response, 'adresstypen');
  }

  @ApiOperation({ operationId: 'getLaender', summary: 'Countries' })
  @ApiJsonAnswer('EnumerationItem', { array: true, revalidated: true })
  @Get('laender')
  countries(@Req() request: Request, @Res() response: Response) {
    return sendEnumeration(request, response, 'laender');
  }
}
