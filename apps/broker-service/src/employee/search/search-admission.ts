import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { overloaded } from '@broker/errors';
import { AdmissionGate, type AdmissionSettings } from '@broker/platform';

/** The settings of the search admission (SEARCH_CONNECTIONS, SEARCH_QUEUE_LENGTH, SEARCH_QUEUE_WAIT_MS). */
export const SEARCH_ADMISSION = Symbol('SEARCH_ADMISSION');

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

  async use(_request: Request, response: Response, next: NextFunction): Promise<void> {
    const gone = new AbortController();
    const leave = () => gone.abort();
    response.once('close', leave);
    const release = await this.gate.enter(gone.signal);
    response.off('close', leave);
    if (gone.signal.aborted) {
      release?.();
      return;
    }
    if (!release) throw overloaded();
    // 'close' follows the end of the answer as well as a caller that went away.
    response.once('close', release);
    next();
  }
}
