import { DomainError } from './domain-error.js';
import { ErrorCode } from './error-code.js';

/** How long a request refused under overload is asked to wait before it tries again (its Retry-After). */
export const OVERLOAD_RETRY_AFTER_SECONDS = 1;

/**
 * What pg-pool rejects a connection request with once it has waited `connectionTimeoutMillis` (DB_POOL_WAIT_MS):
 * no connection of the full pool became free, or a new one was not established in time. Plain Errors, told apart
 * by their message only; TypeORM passes them on unwrapped, since it asks for the connection before its query.
 */
const CONNECTION_WAIT_TIMEOUTS = new Set([
  'timeout exceeded when trying to connect',
  'Connection terminated due to connection timeout',
]);

/** 503 with Retry-After, in the area's error shape: the service refuses a request it has no capacity for. */
export function overloaded(): DomainError {
  return new DomainError(
    ErrorCode.Overloaded,
    `The service is overloaded; try again in ${OVERLOAD_RETRY_AFTER_SECONDS} s`,
    [],
    { 'Retry-After': String(OVERLOAD_RETRY_AFTER_SECONDS) },
  );
}

/**
 * The answer to a request that waited too long for a database connection: `overloaded()` (never a server
 * fault). Undefined for any other exception.
 */
export function overloadRefusal(exception: unknown): DomainError | undefined {
  // Not `instanceof Error`: the driver's errors may come from another realm (jest).
  const message = (exception as { message?: unknown } | null | undefined)?.message;
  if (typeof message !== 'string' || !CONNECTION_WAIT_TIMEOUTS.has(message)) return undefined;
  return overloaded();
}
