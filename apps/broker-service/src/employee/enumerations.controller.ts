import { Controller, Get, Req, Res, UseGuards } from '@nestjs/common';
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
  @Get('anreden')
  salutations(@Req() request: Request, @Res() response: Response) {
    return sendEnumeration(request, response, 'anreden');
  }

  @Get('kontaktarten')
  contactKinds(@Req() request: Request, @Res() response: Response) {
    return sendEnumeration(request, response, 'kontaktarten');
  }

  @Get('notiztypen')
  noteTypes(@Req() request: Request, @Res() response: Response) {
    return sendEnumeration(request, response, 'notiztypen');
  }

  @Get('adresstypen')
  addressTypes(@Req() request: Request, @Res() response: Response) {
    return sendEnumeration(request, response, 'adresstypen');
  }

  @Get('laender')
  countries(@Req() request: Request, @Res() response: Response) {
    return sendEnumeration(request, response, 'laender');
  }
}
