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
  Res,
  UploadedFile,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiBody, ApiHeader, ApiOperation, ApiResponse } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import {
  ListImportsQuery,
  StartImportForm,
  StartImportQuery,
  type ImportDryRunReport,
  type ImportDryRunStarted,
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

/** The number of all the caller's processes, beside a page of /list (extension: the spec's list has no paging). */
const TOTAL_COUNT_HEADER = 'X-Total-Count';

/** Area A, base /api/v1: start an import and list import processes. */
@Controller('api/v1')
@UseGuards(OAuthBearerGuard)
export class ImportController {
  constructor(private readonly imports: ImportService) {}

  @ApiOperation({ operationId: 'startImport', summary: 'Uploads a GDV or CSV file and starts its import' })
  @ApiResponse({
    status: 200,
    description:
      'The process started; with dry_run=true and a file up to IMPORT_DRY_RUN_SYNC_MAX_BYTES, the report the ' +
      'import would give instead (extension)',
    schema: {
      oneOf: [
        { $ref: '#/components/schemas/ImportStarted' },
        { $ref: '#/components/schemas/ImportDryRunReport' },
      ],
    },
  })
  @ApiJsonAnswer('ImportDryRunStarted', {
    status: 202,
    description:
      'With dry_run=true and a larger file: a dry-run process, read through its report and events (extension)',
  })
  @ApiQueryParameters(StartImportQuery)
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
    @Res({ passthrough: true }) response: Response,
    @UploadedFile() file: StoredUpload | undefined,
    @Body() form: StartImportForm,
    @Query() query: StartImportQuery,
  ): Promise<ImportStarted | ImportDryRunReport | ImportDryRunStarted> {
    const principal = principalOf(request);
    if (query.dry_run !== 'true')
      return this.imports.startImport(principal, file, form, requestIdOf(request), idempotencyKeyOf(request));
    return this.imports.dryRun(principal, file, form, requestIdOf(request)).then((answer) => {
      if ('process_id' in answer) response.status(202);
      return answer;
    });
  }

  @ApiQueryParameters(ListImportsQuery)
  @ApiOperation({
    operationId: 'listImports',
    summary: 'Import processes of the caller’s broker, newest first',
  })
  @ApiJsonAnswer('ImportProcessView', {
    array: true,
    description: 'The page of processes, newest first',
    headers: {
      [TOTAL_COUNT_HEADER]: {
        description: 'The number of all the caller’s processes, for paging',
        required: true,
        schema: { type: 'integer', minimum: 0 },
      },
    },
  })
  @Get('list')
  async list(
    @Req() request: Request,
    @Query() query: ListImportsQuery,
    @Res({ passthrough: true }) response: Response,
  ): Promise<ImportProcessView[]> {
    const { processes, total } = await this.imports.list(principalOf(request), query);
    response.setHeader(TOTAL_COUNT_HEADER, String(total));
    return processes;
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
