import { Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, Server } from 'node:http';
import { InProcessCallers, type SvcPrincipal } from '@broker/auth';
import { DomainError } from '@broker/errors';
import { injectTraceContext } from '@broker/telemetry';
import { readBatch } from './batch-reader.js';
import { type AnsweredPart } from './batch-response.js';
import { InProcessClient, type PartAnswer } from './in-process-client.js';
import { MULTI_CALL_LIMITS, type MultiCallLimits } from './multi-call-limits.js';
import { FROM_THE_BATCH, type PartCall, planParts, stepsOf } from './part-plan.js';

/** Reads of one step in flight at once: fewer than the database pool's connections (10), so a batch leaves room. */
const PARALLEL_READS = 8;

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
   * request order. `base` is the absolute path of the service's base, as routed and as the caller wrote it; `requestId` numbers the parts' ids.
   * Once `abandoned` (the client went away) no further part starts and the running ones are ended (their request
   * and response close). A part the server drops, or answers incompletely, gets its own 502.
   */
  async run(
    request: IncomingMessage,
    caller: SvcPrincipal,
    base: { routed: string; sent: string },
    requestId: string,
    abandoned: AbortSignal,
  ): Promise<AnsweredPart[]> {
    if (this.callers.callerOf(request))
      throw DomainError.validation(['A multi-call cannot be a part of another multi-call']);
    const planned = planParts(await readBatch(request, this.limits), base.routed, base.sent);
    const server = this.adapterHost.httpAdapter.getHttpServer() as Server;
    const client = new InProcessClient(server, this.callers, caller, request.socket);
    abandoned.addEventListener('abort', () => client.abandon(), { once: true });
    const answers: PartAnswer[] = [];
    const answer = async (index: number) => {
      const part = planned[index];
      answers[index] =
        'call' in part
          ? await client
              .send(asPartOf(request, part.call, `${requestId}.${index + 1}`))
              .catch(() => ownAnswer(502, 'The call ended without a complete answer'))
          : ownAnswer(400, part.problem);
    };
    for (const step of stepsOf(planned)) await runStep(step, answer, abandoned);
    return answers.map((answered, index) => ({ requestId: planned[index].contentId, answer: answered }));
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
 * The call as a part of the batch `outer`: sent to the batch's host from the batch's client (the forwarding
 * headers, which a part may not state), logged under the batch's request id with the part's position, and in the
 * batch's time zone unless the part states its own; in the batch's trace.
 */
function asPartOf(outer: IncomingMessage, call: PartCall, id: string): PartCall {
  const zone = outer.headers['x-svc-timezone'];
  const headers: Record<string, string> = {
    ...(typeof zone === 'string' && zone && { 'x-svc-timezone': zone }),
    ...call.headers,
    'x-request-id': id,
  };
  for (const name of FROM_THE_BATCH) {
    const value = outer.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  // With tracing on, the part's own HTTP span is a child of the batch's.
  injectTraceContext(headers);
  return { ...call, headers };
}

/** A part's answer given by the multi-call itself, in the area's error shape. */
function ownAnswer(status: number, problem: string): PartAnswer {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: Buffer.from(JSON.stringify({ Meldungen: [problem] })),
  };
}
