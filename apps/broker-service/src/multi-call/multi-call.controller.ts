import { applyDecorators, Controller, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiProduces } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { HeaderGroupGuard, type SvcPrincipal } from '@broker/auth';
import { BodyMediaTypes, noStoreHeader, REQUEST_ID_HEADER } from '@broker/platform';
import { BROKER_BASE, Caller } from '../broker/broker-base.js';
import { EMPLOYEE_BASE } from '../employee/employee-scope.js';
import { batchResponse } from './batch-response.js';
import { MultiCallService } from './multi-call.service.js';
import { callerBase } from '../interface-version.js';

/** How the OpenAPI documents describe the multi-call (the parts are HTTP messages, beyond a JSON schema). */
const DocumentedAsMultiCall = () =>
  applyDecorators(
    ApiOperation({
      operationId: 'multiCall',
      summary: 'Runs several calls of this interface in one request',
    }),
    BodyMediaTypes('multipart/related'),
    ApiBody({
      description:
        'One part per call, each with the headers Content-ID, X-Svc-Method and X-Svc-Path (relative to the base) ' +
        "and the call's body; Last-Modified or If-Modified-Since revalidate a cached resource.",
      schema: { type: 'string', format: 'binary' },
    }),
    ApiProduces('multipart/related'),
    ApiOkResponse({
      schema: { type: 'string', format: 'binary' },
      description:
        "One part per request part, in order, with Content-ID, X-Svc-Request-ID (the request part's Content-ID), " +
        'X-Svc-Status (e.g. "200 OK", "304 Not Modified") and the call\'s Content-Type, Content-Disposition, ' +
        'Last-Modified, Cache-Control, ETag, Location and X-Svc-Total where it has them.',
      headers: { 'Cache-Control': noStoreHeader('no-store') },
    }),
  );

/**
 * Multi-call: POST {base_url} with a multipart/related body, one call per part, on the broker service and,
 * beyond the spec, on the employee service. Answers 200 multipart/related once the caller is authenticated;
 * each part's outcome is in its X-Svc-Status.
 */
@Controller()
@UseGuards(HeaderGroupGuard)
export class MultiCallController {
  constructor(private readonly multiCall: MultiCallService) {}

  @Post(BROKER_BASE)
  @DocumentedAsMultiCall()
  brokerBatch(@Caller() caller: SvcPrincipal, @Req() request: Request, @Res() response: Response) {
    return this.answer(caller, 'broker', request, response);
  }

  @Post(EMPLOYEE_BASE)
  @DocumentedAsMultiCall()
  employeeBatch(@Caller() caller: SvcPrincipal, @Req() request: Request, @Res() response: Response) {
    return this.answer(caller, 'employee', request, response);
  }

  private async answer(
    caller: SvcPrincipal,
    service: 'broker' | 'employee',
    request: Request,
    response: Response,
  ): Promise<void> {
    const routed = `/service/${encodeURIComponent(caller.tenantCode)}/${service}/v1/rest`;
    const base = { routed, sent: callerBase(request.originalUrl) ?? routed };
    const requestId = String(response.getHeader(REQUEST_ID_HEADER) ?? '');
    const abandoned = new AbortController();
    response.on('close', () => {
      if (!response.writableFinished) abandoned.abort();
    });
    const answered = await this.multiCall.run(request, caller, base, requestId, abandoned.signal);
    if (abandoned.signal.aborted) return;
    const { contentType, body } = batchResponse(answered);
    response
      .status(200)
      .setHeader('Content-Type', contentType)
      .setHeader('Cache-Control', 'no-store')
      .end(body);
  }
}
