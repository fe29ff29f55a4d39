import { Controller, Get, Param, UseGuards } from '@nestjs/common';
import { HeaderGroupGuard } from '@broker/auth';
import { EMPLOYEE_BASE, type EmployeeScope, EmployeeScopeGuard, Scope } from '../employee-scope.js';
import { ParseIdPipe } from '../ids.js';
import { RecordsService } from './records.service.js';

@Controller(`${EMPLOYEE_BASE}/:ma/kunden/:customerId`)
@UseGuards(HeaderGroupGuard, EmployeeScopeGuard)
export class RecordsController {
  constructor(private readonly records: RecordsService) {}

  @Get('vertraege')
  contracts(@Scope() scope: EmployeeScope, @Param('customerId', ParseIdPipe) customerId: string) {
    return this.records.contracts(scope, customerId);
  }

  /** The archive entries that carry a document. */
  @Get('dokumente')
  documents(@Scope() scope: EmployeeScope, @Param('customerId', ParseIdPipe) customerId: string) {
    return this.records.archiveEntries(scope, customerId, true);
  }

  @Get('archiveintraege')
  archiveEntries(@Scope() scope: EmployeeScope, @Param('customerId', ParseIdPipe) customerId: string) {
    return this.records.archiveEntries(scope, customerId, false);
  }

  @Get('archiveintraege/:entryId')
  archiveEntry(
    @Scope() scope: EmployeeScope,
    @Param('customerId', ParseIdPipe) customerId: string,
    @Param('entryId', ParseIdPipe) entryId: string,
  ) {
    return this.records.archiveEntry(scope, customerId, entryId);
  }
}
