import { Controller, Get, Headers, Param, ParseUUIDPipe, Req, Res, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiProduces, ApiResponse } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { OAuthBearerGuard, principalOf } from '@broker/auth';
import { DomainError } from '@broker/errors';
import { linkActiveSpan } from '@broker/telemetry';
import { ImportProcessRepository } from '../imports/import-process.repository.js';
import { ImportService } from '../imports/import.service.js';
import { streamPosition } from './process-event-stream.js';
import { ProcessEventStreams } from './process-event-streams.js';

const EVENTS_DESCRIPTION =
  'Server-Sent Events (text/event-stream). Each event has an `id`, a type and `data`, the JSON object ' +
  '`ImportProcessEvent` ({process_id, status, progress}): `status` for every status change (all of them from ' +
  'the start, or those after Last-Event-ID), `progress` while a stage walks the file’s records (at most once a ' +
  'second), `end` once the process is processed, failed or archived; then the stream closes. A comment line ' +
  '(`: keep-alive`) comes every 15 seconds while nothing happens.';

/** Beyond the spec: an import process's status changes and progress as they happen. */
@Controller('api/v1')
@UseGuards(OAuthBearerGuard)
export class ProcessEventsController {
  constructor(
    private readonly imports: ImportService,
    private readonly processes: ImportProcessRepository,
    private readonly streams: ProcessEventStreams,
  ) {}

  @ApiOperation({
    operationId: 'streamImportEvents',
    summary: 'The events of one import process as a live stream (Server-Sent Events)',
    description: EVENTS_DESCRIPTION,
  })
  @ApiHeader({
    name: 'Last-Event-ID',
    required: false,
    description: 'The id of the last event received: the stream resumes after it, without gaps or repeats',
  })
  @ApiProduces('text/event-stream')
  @ApiResponse({
    status: 200,
    description: EVENTS_DESCRIPTION,
    content: {
      'text/event-stream': {
        schema: { type: 'string' },
        // Not expressible in OpenAPI 3.0: the schema of each event's data, for readers and generators.
        'x-event-data': { $ref: '#/components/schemas/ImportProcessEvent' },
      } as never,
    },
  })
  @ApiResponse({
    status: 204,
    description: 'The client already received the end event: nothing more will come',
  })
  @Get('processes/:processId/events')
  async events(
    @Req() request: Request,
    @Res() response: Response,
    @Param('processId', new ParseUUIDPipe({ version: '4' })) processId: string,
    @Headers('last-event-id') lastEventId: string | undefined,
  ): Promise<void> {
    const caller = await this.imports.callerBroker(principalOf(request));
    const process = await this.processes.findVisible(caller, processId);
    if (!process) throw DomainError.notFound(`No import process ${processId}`);
    // The stream's own trace, linked to the upload's.
    linkActiveSpan(process.traceParent);
    let position = streamPosition(lastEventId);
    if (position.ended) {
      // The end of this process was received: nothing more comes. An id of another process starts over.
      const history = await this.processes.statusChangesAfter(processId, '0');
      if (history.some((change) => change.id === position.changeId)) {
        response.status(204).end();
        return;
      }
      position = streamPosition(undefined);
    }
    await this.streams.stream(processId, position, request, response);
  }
}
