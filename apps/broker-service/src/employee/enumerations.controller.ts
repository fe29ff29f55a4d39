import { Controller, Get, Req, Res, UseGuards } from '@nestjs/common';
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
  @Get('anreden')
  salutations(@Req() request: Request, @Res() response: Response) {
    return sendEnumeration(request, response, 'anreden');
  }

  @ApiOperation({ operationId: 'getKundenKontaktarten', summary: 'Kinds of contact entries' })
  @Get('kontaktarten')
  contactKinds(@Req() request: Request, @Res() response: Response) {
    return sendEnumeration(request, response, 'kontaktarten');
  }

  @ApiOperation({ operationId: 'getKundenNotizTypen', summary: 'Types of customer notes' })
  @Get('notiztypen')
  noteTypes(@Req() request: Request, @Res() response: Response) {
    return sendEnumeration(request, response, 'notiztypen');
  }

  @ApiOperation({ operationId: 'getAdresstypen', summary: 'Types of addresses' })
  @Get('adresstypen')
  addressTypes(@Req() request: Request, @Res() response: Response) {
    return sendEnumeration(request, response, 'adresstypen');
  }

  @ApiOperation({ operationId: 'getLaender', summary: 'Countries' })
  @Get('laender')
  countries(@Req() request: Request, @Res() response: Response) {
    return sendEnumeration(request, response, 'laender');
  }
}
