import {
  applyDecorators,
  Controller,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiResponse } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ImportProcessOperations, type WriteContext } from '@broker/administration';
import {
  FollowImportProcessesQuery,
  ListImportProcessesQuery,
  type OperatorImportDetail,
  type OperatorImportPage,
} from '@broker/contracts';
import { ApiJsonAnswer, ApiQueryParameters } from '@broker/platform';
import { ADMIN_BASE } from '../answers.js';
import { AdminGuard, Writer } from '../auth/admin.guard.js';
import { ApiConflict } from '../documented-errors.js';
import { IMPORT_STREAM_HEARTBEAT_SECONDS, ImportProcessStreams } from './import-process-streams.js';

/** An answer of Server-Sent Events whose data are OperatorImportViews: `events` says which. */
function ApiEventStream(events: string): MethodDecorator {
  return applyDecorators(
    ApiProduces('text/event-stream'),
    ApiResponse({
      status: 200,
      description:
        `Server-Sent Events (text/event-stream): ${events} A comment line (\`: keep-alive\`) comes every ` +
        `${IMPORT_STREAM_HEARTBEAT_SECONDS} seconds while nothing happens.`,
      content: {
        'text/event-stream': {
          schema: { type: 'string' },
          // Not expressible in OpenAPI 3.0: the schema of each event's data, for readers and generators.
          'x-event-data': { $ref: '#/components/schemas/OperatorImportView' },
        } as never,
      },
    }),
  );
}

/** The import processes of the tenant's brokers (area A), followed and mended by operators. */
@Controller(`${ADMIN_BASE}/tenants/:tenant/import-processes`)
@UseGuards(AdminGuard)
export class ImportProcessesController {
  constructor(
    private readonly processes: ImportProcessOperations,
    private readonly streams: ImportProcessStreams,
  ) {}

  @ApiOperation({
    operationId: 'listImportProcesses',
    summary: 'The import processes of the tenant’s brokers, newest first; by status, broker and start time',
  })
  @ApiJsonAnswer('OperatorImportPage')
  @ApiQueryParameters(ListImportProcessesQuery)
  @Get()
  list(
    @Param('tenant') tenant: string,
    @Query() query: ListImportProcessesQuery,
  ): Promise<OperatorImportPage> {
    const { status, broker, from, to, sort, offset, limit } = query;
    return this.processes.list(tenant, { status, broker, from, to, sort }, { offset, limit });
  }

  @ApiOperation({
    operationId: 'followImportProcesses',
    summary:
      'The import processes a list shows as they move, and the processes started since (Server-Sent Events)',
  })
  @ApiQueryParameters(FollowImportProcessesQuery)
  @ApiEventStream(
    '`process` with the OperatorImportView of a followed process whenever it changed (each at once first), ' +
      '`started` with the OperatorImportView of each process of the tenant started after the stream began. The ' +
      'stream stays open until the client leaves.',
  )
  @Get('events')
  async followList(
    @Param('tenant') tenant: string,
    @Query() query: FollowImportProcessesQuery,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    await this.streams.followList(tenant, query.idList, request, response);
  }

  @ApiOperation({
    operationId: 'getImportProcess',
    summary: 'An import process with its stage history, its first issues and its failure reason',
  })
  @ApiJsonAnswer('OperatorImportDetail')
  @Get(':processId')
  get(@Param('tenant') tenant: string, @Param('processId') processId: string): Promise<OperatorImportDetail> {
    return this.processes.get(tenant, processId);
  }

  @ApiOperation({
    operationId: 'followImportProcess',
    summary: 'An import process as it moves (Server-Sent Events), for live views',
  })
  @ApiEventStream(
    '`process` with the OperatorImportView whenever it changed (the first at once), `end` once the process ended; ' +
      'then the stream closes.',
  )
  @Get(':processId/events')
  async follow(
    @Param('tenant') tenant: string,
    @Param('processId') processId: string,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    await this.streams.follow(tenant, processId, request, response);
  }

  @ApiOperation({
    operationId: 'retryImportProcess',
    summary:
      'Retries a failed import from the stage that failed (from reading the stored file again when that stage’s ' +
      'work rows are gone); the import worker runs it',
  })
  @ApiJsonAnswer('OperatorImportDetail')
  @ApiConflict('The import is not failed (a second click, or it was retried already), or it is a dry run')
  @Post(':processId/retry')
  @HttpCode(200)
  retry(
    @Writer() writer: WriteContext,
    @Param('tenant') tenant: string,
    @Param('processId') processId: string,
  ): Promise<OperatorImportDetail> {
    return this.processes.retry(writer, tenant, processId);
  }

  @ApiOperation({
    operationId: 'cancelImportProcess',
    summary:
      'Cancels an import that is under way (a stuck one): the import worker ends it as failed; a stage still ' +
      'running does not move it on',
  })
  @ApiJsonAnswer('OperatorImportDetail', { status: 202, description: 'Accepted: the worker ends it' })
  @ApiConflict('The import has ended, or its cancellation was asked for already')
  @Post(':processId/cancel')
  @HttpCode(202)
  cancel(
    @Writer() writer: WriteContext,
    @Param('tenant') tenant: string,
    @Param('processId') processId: string,
  ): Promise<OperatorImportDetail> {
    return this.processes.cancel(writer, tenant, processId);
  }
}
