import { Controller, Get, UseGuards } from '@nestjs/common';
import { HeaderGroupGuard } from '@broker/auth';
import { ADDRESS_TYPES, CONTACT_KINDS, COUNTRIES, NOTE_TYPES, SALUTATIONS } from '@broker/contracts';
import { EMPLOYEE_BASE } from './employee-scope.js';

/** The enumeration operations (getAnreden, ...): lists of {Value, Text}; the Value is the key clients send. */
@Controller(EMPLOYEE_BASE)
@UseGuards(HeaderGroupGuard)
export class EnumerationsController {
  @Get('anreden')
  salutations() {
    return SALUTATIONS;
  }

  @Get('kontaktarten')
  contactKinds() {
    return CONTACT_KINDS;
  }

  @Get('notiztypen')
  noteTypes() {
    return NOTE_TYPES;
  }

  @Get('adresstypen')
  addressTypes() {
    return ADDRESS_TYPES;
  }

  @Get('laender')
  countries() {
    return COUNTRIES;
  }
}
