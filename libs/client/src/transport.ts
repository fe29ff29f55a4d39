import { setTimeout as sleep } from 'node:timers/promises';
import { retryAfterSeconds } from './api-error.js';
import type { FetchFunction } from './fetch-function.js';

/** What a retry is told about the answer it repeats a call after. */
export interface RetryEvent {
  /** The attempt that comes next: 2 for the first repeat. */
  attempt: number;
  status: number;
  delaySeconds: number;
  url: string;
  requestId: string | null;
}

/** Repeating calls the service or the gateway refused for now: 503 (overloaded) and 429 (rate limited). */
export interface RetryOptions {
  /** Attempts in all, the first one included (default 3). */
  attempts?: number;
  /**
   * The longest wait before a repeat, in seconds (default 30): an answer whose `Retry-After` asks for more is
   * the call's answer, not waited for.
   */
  maxDelaySeconds?: number;
  /** Called before each repeat (to log it, or count it). */
  onRetry?: (event: RetryEvent) => void;
}

/** How every factory's calls travel: the same options in every area. */
export interface TransportOptions {
  /** A function from Request to Response, for a proxy agent or a custom transport; default the global `fetch`. */
  fetch?: FetchFunction;
  /**
   * Milliseconds an attempt may take, its answer's body read (default 30,000; 0 for none). Uploads and event
   * streams have none: they take as long as the file or the import.
   */
  timeoutMs?: number;
  /** Off unless given: `true` for the defaults, or the attempts and the longest wait. */
  retry?: boolean | RetryOptions;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
const RETRIED_STATUSES = new Set([429, 503]);
/** The wait before the n-th repeat when the answer says none (1 s, 2 s, 4 s, ...). */
const backoffSeconds = (repeat: number) => 2 ** (repeat - 1);

/** The retry settings `retry` stands for, or null when calls are not repeated. */
export function retrySettings(retry: TransportOptions['retry']): Required<RetryOptions> | null {
  if (!retry) return null;
  const given = retry === true ? {} : retry;
  const settings = {
    attempts: given.attempts ?? 3,
    maxDelaySeconds: given.maxDelaySeconds ?? 30,
    onRetry: given.onRetry ?? (() => undefined),
  };
  if (!Number.isInteger(settings.attempts) || settings.attempts < 1)
    throw new RangeError('retry.attempts must be a positive integer');
  if (!(settings.maxDelaySeconds >= 0)) throw new RangeError('retry.maxDelaySeconds must be 0 or more');
  return settings;
}

/**
 * How long to wait before repeating a call answered with `response` in `attempt` (1 for the first), or null when it
 * is not repeated: a status other than 503 and 429, no attempt left, or a Retry-After beyond the cap.
 */
function retryDelaySeconds(
  response: Response,
  attempt: number,
  settings: Required<RetryOptions>,
): number | null {
  if (!RETRIED_STATUSES.has(response.status) || attempt >= settings.attempts) return null;
  const delay = retryAfterSeconds(response) ?? backoffSeconds(attempt);
  return delay <= settings.maxDelaySeconds ? delay : null;
}

/** Waits out `delaySeconds` before the repeat after `response`, telling `onRetry`; the refused body is dropped. */
async function waitToRetry(
  response: Response,
  attempt: number,
  delaySeconds: number,
  settings: Required<RetryOptions>,
  signal?: AbortSignal | null,
): Promise<void> {
  // Unread, it is dropped; a client that read it (openapi-fetch's error body) has let it go already.
  if (response.body && !response.body.locked) await response.body.cancel();
  settings.onRetry({
    attempt: attempt + 1,
    status: response.status,
    delaySeconds,
    url: response.url,
    requestId: response.headers.get('X-Request-Id'),
  });
  await sleep(delaySeconds * 1000, undefined, { signal: signal ?? undefined });
}

/**
 * `send` with each attempt limited to `timeoutMs` (the caller's own signal still applies), and, with `retry`, calls
 * answered 503 or 429 sent again after their `Retry-After`.
 */
export function transportFetch(send: FetchFunction, options: TransportOptions): FetchFunction {
  return retryingFetch(timedFetch(send, options), options);
}

/** Each request through `send` aborted after `timeoutMs` (default 30 s; 0 for none). */
export function timedFetch(
  send: FetchFunction,
  { timeoutMs = DEFAULT_TIMEOUT_MS }: TransportOptions,
): FetchFunction {
  return timeoutMs > 0 ? (request) => send(withTimeout(request, timeoutMs)) : send;
}

/**
 * With `retry`, a call answered 503 or 429 is sent through `send` again after its `Retry-After`. The request is kept
 * (cloned, its body with it) before each attempt, and each repeat goes through `send` anew, so it is signed and
 * authorized afresh.
 */
export function retryingFetch(send: FetchFunction, options: TransportOptions): FetchFunction {
  const settings = retrySettings(options.retry);
  if (!settings) return send;
  return (request) => {
    let next = request;
    return untilNotRefused(settings, request.signal, () => {
      const sent = next;
      next = sent.clone();
      return send(sent);
    });
  };
}

/**
 * Makes `attempt` until its answer is not one to repeat (503 or 429 within the cap) or the attempts are used up,
 * waiting out each refusal's Retry-After; the last answer.
 */
export async function untilNotRefused(
  settings: Required<RetryOptions>,
  signal: AbortSignal | null | undefined,
  attempt: () => Promise<Response>,
): Promise<Response> {
  for (let count = 1; ; count++) {
    const response = await attempt();
    const delay = retryDelaySeconds(response, count, settings);
    if (delay === null) return response;
    await waitToRetry(response, count, delay, settings, signal);
  }
}

/** The request, aborted after `timeoutMs` or when its own signal aborts. */
function withTimeout(request: Request, timeoutMs: number): Request {
  return new Request(request, { signal: AbortSignal.any([request.signal, AbortSignal.timeout(timeoutMs)]) });
}
