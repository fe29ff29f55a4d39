import type { components as EmployeeComponents } from './generated/employee-api.js';
import type { components as ImportComponents } from './generated/import-api.js';

/** The error body of area C. */
export type Meldungen = EmployeeComponents['schemas']['Meldungen'];
/** The error body of areas A and B. */
export type ApiErrorView = ImportComponents['schemas']['ApiErrorView'];

/**
 * A call answered with an error status. `body` is the area's error body as the document declares it for that
 * operation (`ApiErrorView` in areas A and B, `Meldungen` in area C), or the text of an answer that is not JSON
 * (the HTML fault page of a 500). `requestId` is the answer's `X-Request-Id`, which the services and the gateway
 * log: quote it when asking the pool's operators about the call.
 */
export class BrokerApiError<Body = unknown> extends Error {
  readonly requestId: string | null;

  constructor(
    readonly status: number,
    readonly body: Body,
    readonly response: Response,
  ) {
    const requestId = response.headers.get('X-Request-Id');
    super(
      `${response.url || 'request'} answered ${status}: ${describe(body)}` +
        (requestId ? ` (request id ${requestId})` : ''),
    );
    this.name = 'BrokerApiError';
    this.requestId = requestId;
  }

  /** Seconds to wait before trying again, from `Retry-After` (503, 429), or null when the answer has none. */
  get retryAfterSeconds(): number | null {
    return retryAfterSeconds(this.response);
  }
}

/** `Retry-After` of an answer in seconds (given as seconds or as an HTTP date), or null without one. */
export function retryAfterSeconds(response: Response): number | null {
  const value = response.headers.get('Retry-After');
  if (value === null) return null;
  if (/^\d+$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

function describe(body: unknown): string {
  if (typeof body === 'string') return body.slice(0, 200);
  if (body && typeof body === 'object') {
    const { Meldungen, message } = body as { Meldungen?: unknown; message?: unknown };
    if (Array.isArray(Meldungen)) return Meldungen.join('; ');
    if (typeof message === 'string') return message;
  }
  return JSON.stringify(body) ?? 'no body';
}

/** A BrokerApiError of area C, its body `{ Meldungen: [...] }`. */
export function isMeldungenError(error: unknown): error is BrokerApiError<Meldungen> {
  return (
    error instanceof BrokerApiError && Array.isArray((error.body as Partial<Meldungen> | null)?.Meldungen)
  );
}

/** A BrokerApiError of area A or B, its body an ApiErrorView (`name`, `message`, `code`, `status`). */
export function isApiErrorViewError(error: unknown): error is BrokerApiError<ApiErrorView> {
  return (
    error instanceof BrokerApiError &&
    typeof (error.body as Partial<ApiErrorView> | null)?.message === 'string'
  );
}

/** What openapi-fetch resolves a call with: the data of a success or the error body of a failure. */
export type CallResult = { response: Response } & (
  { data: unknown; error?: never } | { data?: never; error: unknown }
);
export type DataOf<R> = R extends { data: infer D; error?: never } ? D : never;
type ErrorOf<R> = R extends { data?: never; error: infer E } ? E : never;

/**
 * The data of a successful call, or a thrown `BrokerApiError` typed with the operation's error body:
 * `const hits = await must(employee.api.GET('/{ma}/kunden/_search', ...))`.
 */
export async function must<R extends CallResult>(call: Promise<R>): Promise<DataOf<R>> {
  const result: CallResult = await call;
  if (!result.response.ok) {
    throw new BrokerApiError<ErrorOf<R>>(result.response.status, result.error as ErrorOf<R>, result.response);
  }
  return result.data as DataOf<R>;
}
