import { Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, Server } from 'node:http';
import { InProcessCallers, type SvcPrincipal } from '@broker/auth';
import { DomainError } from '@broker/errors';
import { readBatch } from './batch-reader.js';
import { type AnsweredPart } from './batch-response.js';
import { InProcessClient, type PartAnswer } from './in-process-client.js';
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
    if (this.callers.callerOf(request))
      throw DomainError.validation(['A multi-call cannot be a part of another multi-call']);
    const planned = planParts(await readBatch(request, this.limits), base);
    const server = this.adapterHost.httpAdapter.getHttpServer() as Server;
    const client = new InProcessClient(server, this.callers, caller, {
      maxConnections: PARALLEL_READS,
      remoteAddress: request.socket.remoteAddress,
    });
    const answers: PartAnswer[] = [];
    const answer = async (index: number) => {
      const part = planned[index];
      answers[index] =
        'call' in part
          ? await this.send(client, asPartOf(request, part.call, `${requestId}.${index + 1}`))
          : badPart(part.problem);
    };
    try {
      for (const step of stepsOf(planned)) await runStep(step, answer, abandoned);
      return answers.map((answered, index) => ({ requestId: planned[index].contentId, answer: answered }));
    } finally {
      client.close();
    }
  }

  private async send(client: InProcessClient, call: PartCall): Promise<PartAnswer> {
    try {
      return await client.send(call);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'string' && UNSENDABLE.test(code))
        return badPart(`The part cannot be sent as a call: ${(error as Error).message}`);
      throw error;
    }
  }
}

/**
 * Runs the parts of one step, up to PARALLEL_READS at once (a write is a step of its own); once `abandoned`,
 * no further part starts.
 */
async function runStep(
  step: readonly number[],
  answer: (index: number) => Promise<void>,
  abandoned: AbortSignal,
) {
  const waiting = [...step];
  const lane = async () => {
    for (let index = waiting.shift(); index !== undefined && !abandoned.aborted; index = waiting.shift())
      await answer(index);
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, waiting.length) }, lane));
}

/**
 * The call as a part of the batch `outer`: logged under the batch's request id with the part's position, and in
 * the batch's time zone unless the part states its own.
 */
function asPartOf(outer: IncomingMessage, call: PartCall, id: string): PartCall {
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
