import {
  Body,
  Controller,
  Get,
  HttpCode,
  Param,
  ParseUUIDPipe,
  Post,
  Query,
  Req,
  UploadedFile,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiBody, ApiHeader, ApiOperation } from '@nestjs/swagger';
import type { Request } from 'express';
import {
  ListImportsQuery,
  StartImportForm,
  type ImportProcessReport,
  type ImportProcessView,
  type ImportStarted,
} from '@broker/contracts';
import { OAuthBearerGuard, principalOf } from '@broker/auth';
import { requestIdOf } from '@broker/errors';
import { ApiJsonAnswer, ApiQueryParameters, BodyMediaTypes } from '@broker/platform';
import type { StoredUpload } from '../storage/upload-storage-engine.js';
import { KnownFormFieldsInterceptor } from './known-form-fields.interceptor.js';
import { RemoveUploadOnErrorInterceptor } from './remove-upload-on-error.interceptor.js';
import {
  IDEMPOTENCY_KEY_HEADER,
  idempotencyKeyOf,
  UploadAdmissionInterceptor,
} from './upload-admission.interceptor.js';
import { ImportService } from './import.service.js';

/** Area A, base /api/v1: start an import and list import processes. */
@Controller('api/v1')
@UseGuards(OAuthBearerGuard)
export class ImportController {
  constructor(private readonly imports: ImportService) {}

  @ApiOperation({ operationId: 'startImport', summary: 'Uploads a GDV or CSV file and starts its import' })
  @ApiJsonAnswer('ImportStarted')
  @Post('import')
  @HttpCode(200)
  @UseInterceptors(
    UploadAdmissionInterceptor,
    FileInterceptor('file'),
    RemoveUploadOnErrorInterceptor,
    KnownFormFieldsInterceptor,
  )
  @ApiHeader({
    name: IDEMPOTENCY_KEY_HEADER,
    required: false,
    description:
      'Up to 255 visible ASCII characters (a UUID): the same key from the same caller within 24 hours answers ' +
      'the process the first request created, without reading the file or importing it again',
  })
  @BodyMediaTypes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['file'],
      properties: {
        file: {
          type: 'string',
          format: 'binary',
          description: 'The GDV or CSV file (format detected from content)',
        },
        'companies[0]': {
          type: 'string',
          description: 'Company id (VU number); companies[1], ... for more; at least one for a GDV file',
        },
        broker: {
          type: 'string',
          description: "The caller's broker number or one below it; default the caller's",
        },
      },
    },
  })
  start(
    @Req() request: Request,
    @UploadedFile() file: StoredUpload | undefined,
    @Body() form: StartImportForm,
  ): Promise<ImportStarted> {
    return this.imports.startImport(
      principalOf(request),
      file,
      form,
      requestIdOf(request),
      idempotencyKeyOf(request),
    );
  }

  @ApiQueryParameters(ListImportsQuery)
  @ApiOperation({
    operationId: 'listImports',
    summary: 'Import processes of the caller’s broker, newest first',
  })
  @ApiJsonAnswer('ImportProcessView', { array: true })
  @Get('list')
  list(@Req() request: Request, @Query() query: ListImportsQuery): Promise<ImportProcessView[]> {
    return this.imports.list(principalOf(request), query);
  }

  /** Beyond the spec: history, counts per stage, warnings and rejected records with their lines. */
  @ApiOperation({
    operationId: 'getImportReport',
    summary: 'The report of one import process: counts and issues',
  })
  @ApiJsonAnswer('ImportProcessReport')
  @Get('processes/:processId/report')
  report(
    @Req() request: Request,
    @Param('processId', new ParseUUIDPipe({ version: '4' })) processId: string,
  ): Promise<ImportProcessReport> {
    return this.imports.report(principalOf(request), processId);
  }
}
