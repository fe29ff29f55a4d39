import { Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, Server } from 'node:http';
import { InProcessCallers, type SvcPrincipal } from '@broker/auth';
import { readBatch } from './batch-reader.js';
import { type AnsweredPart } from './batch-response.js';
import { InProcessConnection, type PartAnswer } from './in-process-connection.js';
import { MULTI_CALL_LIMITS, type MultiCallLimits } from './multi-call-limits.js';
import { type PartCall, planParts, stepsOf } from './part-plan.js';

/** Reads of one step in flight at once: fewer than the database pool's connections (10), so a batch leaves room. */
const PARALLEL_READS = 8;

/** Node's refusals of a header or path it cannot send: the part's fault, answered with its own 400. */
const UNSENDABLE = /^ERR_(INVALID_CHAR|INVALID_HTTP_TOKEN|UNESCAPED_CHARACTERS|INVALID_HEADER_VALUE)$/;

/**
 * Runs the parts of a multi-call in request order, each as the single call it names; consecutive reads side by
 * side (see stepsOf).
 */
@Injectable()
export class MultiCallService {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly callers: InProcessCallers,
    @Inject(MULTI_CALL_LIMITS) private readonly limits: MultiCallLimits,
  ) {}

  /**
   * Reads the whole batch first (a malformed or oversized batch runs nothing), then answers every part in
   * request order. `base` is the absolute path of the service's base; `requestId` numbers the parts' ids.
   * Once `abandoned` (the client went away) no further part starts.
   */
  async run(
    request: IncomingMessage,
    caller: SvcPrincipal,
    base: string,
    requestId: string,
    abandoned: AbortSignal,
  ): Promise<AnsweredPart[]> {
    const planned = planParts(await readBatch(request, this.limits), base);
    const server = this.adapterHost.httpAdapter.getHttpServer() as Server;
    const connection = new InProcessConnection(server, this.callers, caller, {
      maxConnections: PARALLEL_READS,
      remoteAddress: request.socket.remoteAddress,
    });
    try {
      const answers: PartAnswer[] = [];
      for (const step of stepsOf(planned)) {
        if (abandoned.aborted) break;
        await Promise.all(
          step.map(async (index) => {
            const part = planned[index];
            answers[index] =
              'call' in part
                ? await this.send(connection, withRequestId(part.call, `${requestId}.${index + 1}`, request))
                : badPart(part.problem);
          }),
        );
      }
      return answers.map((answer, index) => ({ requestId: planned[index].contentId, answer }));
    } finally {
      connection.close();
    }
  }

  private async send(connection: InProcessConnection, call: PartCall): Promise<PartAnswer> {
    try {
      return await connection.send(call);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'string' && UNSENDABLE.test(code))
        return badPart(`The part cannot be sent as a call: ${(error as Error).message}`);
      throw error;
    }
  }
}

/** Each part logs under the batch's request id with its position; the caller's time zone carries over. */
function withRequestId(call: PartCall, id: string, outer: IncomingMessage): PartCall {
  const zone = outer.headers['x-svc-timezone'];
  return {
    ...call,
    headers: { ...(zone && { 'x-svc-timezone': zone }), ...call.headers, 'x-request-id': id },
  };
}

function badPart(problem: string): PartAnswer {
  return {
    status: 400,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: Buffer.from(JSON.stringify({ Meldungen: [problem] })),
  };
}
