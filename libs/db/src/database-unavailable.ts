/**
 * SQLSTATEs that say the server is out of reach for now, not that the statement was wrong: the connection failed
 * (class 08, but for 08P01 protocol_violation, which the statement causes), the server shuts down or restarts
 * (57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now), it has no connection slot left (53300),
 * or it is a standby now (25006 read_only_sql_transaction: the connection outlived a failover).
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300', '25006']);
const CONNECTION_EXCEPTION_CLASS = '08';
const PROTOCOL_VIOLATION = '08P01';

/** Socket errors on the way to the server. */
const UNREACHABLE_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND', // the server's name gone while its pod restarts
]);

/** What node-postgres says of a connection that broke or never came (plain Errors, told apart by message). */
const LOST_CONNECTION_MESSAGES = new Set([
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Query read timeout',
]);

interface DriverLikeError {
  code?: unknown;
  message?: unknown;
  driverError?: unknown;
  cause?: unknown;
  errors?: unknown;
}

/**
 * Whether an error says PostgreSQL could not be reached or dropped the connection (an outage, a restart, a killed
 * backend), rather than that the work itself failed: worth waiting for. Looks through TypeORM's `driverError`, a
 * `cause`, and the errors of an AggregateError (a connect tried on every address of a host).
 */
export function isDatabaseUnavailable(error: unknown, depth = 3): boolean {
  if (typeof error !== 'object' || error === null || depth === 0) return false;
  const { code, message, driverError, cause, errors } = error as DriverLikeError;
  if (typeof code === 'string') {
    if (UNAVAILABLE_STATES.has(code) || UNREACHABLE_ERRNOS.has(code)) return true;
    if (code.length === 5 && code.startsWith(CONNECTION_EXCEPTION_CLASS) && code !== PROTOCOL_VIOLATION)
      return true;
  }
  if (typeof message === 'string' && LOST_CONNECTION_MESSAGES.has(message)) return true;
  const inner = [driverError, cause, ...(Array.isArray(errors) ? (errors as unknown[]) : [])];
  return inner.some((candidate) => isDatabaseUnavailable(candidate, depth - 1));
}
