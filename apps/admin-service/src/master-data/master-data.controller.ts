import {
  Controller,
  HttpCode,
  Param,
  Post,
  Query,
  Req,
  Res,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { ApiBody, ApiOperation, ApiParam } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Administration, masterDataColumns, type WriteContext } from '@broker/administration';
import {
  MASTER_DATA_KINDS,
  type MasterDataKind,
  MasterDataQuery,
  type MasterDataResult,
} from '@broker/contracts';
import { DomainError } from '@broker/errors';
import { ApiJsonAnswer, ApiQueryParameters, BodyMediaTypes } from '@broker/platform';
import { ADMIN_BASE } from '../answers.js';
import { AdminGuard, Writer } from '../auth/admin.guard.js';
import { CsvBodyInterceptor, csvOf } from './csv-body.interceptor.js';

/** 422: the file has bad lines, every one listed; nothing was written. */
const REFUSED = 422;

const COLUMNS_DOCUMENTED = MASTER_DATA_KINDS.map((kind) => {
  const { required, known } = masterDataColumns(kind);
  const optional = known.filter((column) => !required.includes(column));
  return `${kind}: ${required.join(',')}${optional.length > 0 ? ` (optional: ${optional.join(', ')})` : ''}`;
}).join('; ');

function kindOf(kind: string): MasterDataKind {
  if ((MASTER_DATA_KINDS as readonly string[]).includes(kind)) return kind as MasterDataKind;
  throw DomainError.notFound(`No master-data kind ${kind}; the kinds are ${MASTER_DATA_KINDS.join(', ')}`);
}

/** Master data in bulk (a pool's nightly copy of its own systems). */
@Controller(`${ADMIN_BASE}/tenants/:tenant/master-data`)
@UseGuards(AdminGuard)
export class MasterDataController {
  constructor(private readonly admin: Administration) {}

  @ApiOperation({
    operationId: 'importMasterData',
    summary: 'Creates and updates brokers, employees, insurers or agreements from a CSV file',
    description:
      'A UTF-8 CSV file (comma, or semicolon as German spreadsheets write it) with a header row naming its ' +
      `columns in any order: ${COLUMNS_DOCUMENTED}. Rows are matched by their key (a broker's number; an ` +
      'employee’s broker and number; an insurer’s VU number; an agreement’s broker and VU number): new ones are ' +
      'created, changed ones updated, and rows the file does not name are left alone. A column the file leaves out ' +
      'keeps its stored values; an empty optional cell clears it (an empty `parent` places a broker at the top). ' +
      'Flags take true/false, 1/0, yes/no, ja/nein, x or empty. A broker’s `parent` may come later in the file. ' +
      'A second upload of the same file changes nothing. A file with any bad line (malformed, a duplicate key, an ' +
      'unknown reference, a cycle of brokers) is refused whole: 422 with every bad line, nothing written.',
  })
  @ApiParam({ name: 'kind', enum: MASTER_DATA_KINDS, description: 'What the file holds' })
  @ApiQueryParameters(MasterDataQuery)
  @BodyMediaTypes('text/csv')
  @ApiBody({ schema: { type: 'string', description: 'The CSV file' } })
  @ApiJsonAnswer('MasterDataResult', { description: 'Applied (or, as a dry run, checked): the counts' })
  @ApiJsonAnswer('MasterDataResult', {
    status: REFUSED,
    description: 'The file has bad lines, each listed; nothing was written',
  })
  @Post(':kind')
  @HttpCode(200)
  @UseInterceptors(CsvBodyInterceptor)
  async import(
    @Writer() writer: WriteContext,
    @Param('tenant') tenant: string,
    @Param('kind') kind: string,
    @Query() query: MasterDataQuery,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<MasterDataResult> {
    const result = await this.admin.masterData.importCsv(writer, tenant, kindOf(kind), csvOf(request), {
      dryRun: query.dry_run === 'true',
    });
    if (result.errors.length > 0) response.status(REFUSED);
    return result;
  }
}
