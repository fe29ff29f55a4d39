import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { overloaded } from '@broker/errors';
import { AdmissionGate, type AdmissionSettings } from '@broker/platform';

/** The settings of the search admission (SEARCH_CONNECTIONS, SEARCH_QUEUE_LENGTH, SEARCH_QUEUE_WAIT_MS). */
export const SEARCH_ADMISSION = Symbol('SEARCH_ADMISSION');

/**
 * Calls `done` once, on the first of: the answer finished or closed, the connection closed (a response queued
 * behind another on a pipelined connection emits neither 'close' nor 'finish' when the client goes away; its socket
 * does). Not the request's 'close': a request whose body was read closes before it is answered. Returns what stops
 * watching without calling `done`.
 */
function onceOver(request: Request, response: Response, done: () => void): () => void {
  const targets = [
    [response, 'close'],
    [response, 'finish'],
    [request.socket, 'close'],
  ] as const;
  const stop = () => {
    for (const [target, event] of targets) target?.off(event, over);
  };
  const over = () => {
    stop();
    done();
  };
  for (const [target, event] of targets) target?.once(event, over);
  return stop;
}

/**
 * Searches in progress per process, taken before any of a search's work (signature, nonce, API client, query):
 * at most as many as the search pool has connections; further searches wait in arrival order within a bounded
 * wait, then are refused with 503 and Retry-After. A burst of searches then costs the process no more than the
 * searches it serves, and leaves the event loop and the service's own pool to getKunde and the other calls.
 * Multi-call parts pass through it as well (they are served by the same HTTP stack).
 */
@Injectable()
export class SearchAdmission implements NestMiddleware {
  private readonly gate: AdmissionGate;

  constructor(@Inject(SEARCH_ADMISSION) settings: AdmissionSettings) {
    this.gate = new AdmissionGate(settings);
  }

  async use(request: Request, response: Response, next: NextFunction): Promise<void> {
    // Not request.destroyed: a request whose body was read is, with its answer still to come.
    if (response.destroyed || request.socket?.destroyed) return;
    const gone = new AbortController();
    const stopWatching = onceOver(request, response, () => gone.abort());
    const release = await this.gate.enter(gone.signal);
    if (gone.signal.aborted) {
      release?.();
      return;
    }
    stopWatching();
    if (!release) throw overloaded();
    onceOver(request, response, release);
    next();
  }
}
