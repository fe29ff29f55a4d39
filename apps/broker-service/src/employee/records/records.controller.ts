import { Controller, Get, Header, Param, Res, StreamableFile, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { ApiJsonAnswer, noStoreHeader } from '@broker/platform';
import { ApiOperation, ApiOkResponse, ApiProduces } from '@nestjs/swagger';
import { HeaderGroupGuard } from '@broker/auth';
import { EMPLOYEE_BASE, type EmployeeScope, EmployeeScopeGuard, Scope } from '../employee-scope.js';
import { ParseIdPipe } from '../ids.js';
import { RecordsService } from './records.service.js';

@Controller(`${EMPLOYEE_BASE}/:ma/kunden/:customerId`)
@UseGuards(HeaderGroupGuard, EmployeeScopeGuard)
export class RecordsController {
  constructor(private readonly records: RecordsService) {}

  @ApiOperation({ operationId: 'getKundenVertraege', summary: "The customer's contracts" })
  @ApiJsonAnswer('VertragView', { array: true })
  @Get('vertraege')
  contracts(@Scope() scope: EmployeeScope, @Param('customerId', ParseIdPipe) customerId: string) {
    return this.records.contracts(scope, customerId);
  }

  /** The archive entries that carry a document. */
  @ApiOperation({
    operationId: 'getKundenDokumente',
    summary: "The customer's documents (archive entries with a document)",
  })
  @ApiJsonAnswer('ArchiveintragView', { array: true })
  @Get('dokumente')
  documents(@Scope() scope: EmployeeScope, @Param('customerId', ParseIdPipe) customerId: string) {
    return this.records.archiveEntries(scope, customerId, true);
  }

  @ApiOperation({ operationId: 'getKundenArchiveintraege', summary: "The customer's archive entries" })
  @ApiJsonAnswer('ArchiveintragView', { array: true })
  @Get('archiveintraege')
  archiveEntries(@Scope() scope: EmployeeScope, @Param('customerId', ParseIdPipe) customerId: string) {
    return this.records.archiveEntries(scope, customerId, false);
  }

  @ApiOperation({
    operationId: 'getKundenArchiveintrag',
    summary: 'One archive entry of the customer (extension)',
  })
  @ApiJsonAnswer('ArchiveintragView')
  @Get('archiveintraege/:entryId')
  archiveEntry(
    @Scope() scope: EmployeeScope,
    @Param('customerId', ParseIdPipe) customerId: string,
    @Param('entryId', ParseIdPipe) entryId: string,
  ) {
    return this.records.archiveEntry(scope, customerId, entryId);
  }

  /** The file of an archive entry (the signed Maklervollmacht as PDF), when this service stores it. */
  @ApiOperation({
    operationId: 'getKundenArchiveintragDokument',
    summary: "An archive entry's document, as stored (extension)",
  })
  @Get('archiveintraege/:entryId/dokument')
  @Header('X-Content-Type-Options', 'nosniff')
  @ApiProduces('application/pdf')
  @ApiOkResponse({
    description: 'The document',
    schema: { type: 'string', format: 'binary' },
    headers: { 'Cache-Control': noStoreHeader('private, no-store') },
  })
  async documentFile(
    @Scope() scope: EmployeeScope,
    @Param('customerId', ParseIdPipe) customerId: string,
    @Param('entryId', ParseIdPipe) entryId: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<StreamableFile> {
    const file = await this.records.documentFile(scope, customerId, entryId);
    // Set on the file only: an error answer is nothing a cache could misuse, and stays as documented.
    response.setHeader('Cache-Control', 'private, no-store');
    return new StreamableFile(file.content, {
      type: file.mimeType,
      length: file.content.length,
      disposition: attachment(file.fileName),
    });
  }
}

/** Content-Disposition of a download: an ASCII name for old clients, the exact one in RFC 5987 form. */
function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
